import { readFileSync } from 'node:fs';
import { findSourceMap, SourceMap, type SourceMapPayload } from 'node:module';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** A generated file's map, `null` once looked for and not found. */
const maps = new Map<string, SourceMap | null>();
/** A generated file's `sourceMappingURL`, `null` when it names none. */
const mappingUrls = new Map<string, string | null>();

const MAPPING_URL = '//# sourceMappingURL=';

/**
 * Maps stack traces through source maps, reading a file's map only when one of its frames
 * is first printed.
 *
 * Node's own source maps (`process.setSourceMapsEnabled(true)`) read and decode the map of
 * every module loaded after they are turned on: a bot's start loaded about 1 MB of the
 * bundle's maps that way (20–40 ms of its cold start) for stack traces that usually never
 * come. Here `Error.prepareStackTrace` maps each frame of a file with a map beside it or
 * inline (the bundle's chunks, `dist/`'s modules, the strategy cache's files), or one
 * Node already holds (a strategy loaded by tsx, which turns Node's maps on itself), and
 * leaves other frames as V8 prints them. A `prepareStackTrace` someone else installed is
 * kept.
 */
export function installLazySourceMaps(): void {
  // Node 20 puts its own there (`ErrorPrepareStackTrace`, V8's format); any other is
  // ours from an earlier call, or someone else's, and kept.
  const current = Error.prepareStackTrace;
  if (current !== undefined && current.name !== NODE_DEFAULT) return;
  nodeDefault = current;
  Error.prepareStackTrace = mapStackTrace;
}

/** Node's default `Error.prepareStackTrace`, by name. */
const NODE_DEFAULT = 'ErrorPrepareStackTrace';
/** Node's own, kept for the first line (`RangeError [ERR_OUT_OF_RANGE]: …`). */
let nodeDefault: ((error: Error, frames: NodeJS.CallSite[]) => unknown) | undefined;

function mapStackTrace(error: Error, frames: NodeJS.CallSite[]): string {
  // Node's own errors (`ERR_*` codes) get only maps already read or inline (the strategy
  // cache's): Node formats some itself, such as the one every fetch body's reader makes
  // once at a bot's start, and reading a chunk's map for it would cost that start ≈ 20 ms.
  const linked = !isNodeError(error);
  return headerOf(error) + frames.map((frame) => `\n    at ${mappedFrame(frame, linked)}`).join('');
}

function isNodeError(error: unknown): boolean {
  try {
    const code = (error as { code?: unknown } | null | undefined)?.code;
    return typeof code === 'string' && code.startsWith('ERR_');
  } catch {
    return false;
  }
}

/** The first line Node would print: `Name: message`, `Name [CODE]: message`. */
function headerOf(error: Error): string {
  try {
    const header = nodeDefault?.(error, []);
    if (typeof header === 'string') return header;
    return Error.prototype.toString.call(error);
  } catch {
    return '<error>';
  }
}

/** One frame as V8 prints it, its location replaced by the original source's. */
function mappedFrame(frame: NodeJS.CallSite, linked: boolean): string {
  const text = String(frame);
  try {
    const file = frame.getFileName();
    const line = frame.getLineNumber();
    const column = frame.getColumnNumber();
    if (file === undefined || file === null || line === null || column === null) return text;
    const map = mapOf(file, linked);
    if (map === undefined) return text;
    const entry = map.findEntry(line - 1, column - 1) as Partial<{
      originalSource: string;
      originalLine: number;
      originalColumn: number;
    }>;
    if (entry.originalSource === undefined || entry.originalLine === undefined) return text;
    const place = `${file}:${line}:${column}`;
    const source = file.startsWith('file:') ? entry.originalSource : pathOf(entry.originalSource);
    const original = `${source}:${entry.originalLine + 1}:${(entry.originalColumn ?? 0) + 1}`;
    return text.includes(place) ? text.replace(place, original) : `${text} [${original}]`;
  } catch {
    return text;
  }
}

/** The map of `file`; with `linked` false, only one read before or inline in the file. */
function mapOf(file: string, linked: boolean): SourceMap | undefined {
  const known = maps.get(file);
  if (known !== undefined) return known ?? undefined;
  // One Node holds already (a strategy loaded by tsx, which turns Node's maps on).
  const held = findSourceMap(file);
  const url = held === undefined ? mappingUrlOf(file) : undefined;
  // A linked map a Node error's trace does not read: a later trace may.
  if (!linked && url !== undefined && !url.startsWith('data:')) return undefined;
  const map = held ?? (url === undefined ? undefined : parseMap(file, url));
  maps.set(file, map ?? null);
  return map;
}

/** The URL in a generated file's last `sourceMappingURL` comment (the file read once). */
function mappingUrlOf(file: string): string | undefined {
  let url = mappingUrls.get(file);
  if (url === undefined) {
    url = readMappingUrl(file) ?? null;
    mappingUrls.set(file, url);
  }
  return url ?? undefined;
}

function readMappingUrl(file: string): string | undefined {
  if (!file.startsWith('file:') && !isAbsolute(file)) return undefined;
  try {
    const text = readFileSync(pathOf(file), 'utf8');
    const at = text.lastIndexOf(MAPPING_URL);
    return at < 0 ? undefined : text.slice(at + MAPPING_URL.length).trim();
  } catch {
    return undefined;
  }
}

const pathOf = (file: string): string => (file.startsWith('file:') ? fileURLToPath(file) : file);

/** The map `url` names for `file`: inline (`data:`) or a file beside it. */
function parseMap(file: string, url: string): SourceMap | undefined {
  const path = pathOf(file);
  try {
    let payload: SourceMapPayload;
    let base: string;
    if (url.startsWith('data:')) {
      const comma = url.indexOf(',');
      const data = url.slice(comma + 1);
      const json = /;base64$/.test(url.slice(0, comma))
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeURIComponent(data);
      payload = JSON.parse(json) as SourceMapPayload;
      base = path;
    } else {
      base = join(dirname(path), decodeURIComponent(url));
      payload = JSON.parse(readFileSync(base, 'utf8')) as SourceMapPayload;
    }
    // Sources are relative to the map (after its `sourceRoot`): made absolute file URLs.
    const root = payload.sourceRoot ?? '';
    const mapUrl = pathToFileURL(base);
    const sources = payload.sources.map((s) => new URL(root + s, mapUrl).href);
    return new SourceMap({ ...payload, sources, sourceRoot: '' });
  } catch {
    return undefined;
  }
}
