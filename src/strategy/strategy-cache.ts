import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, parse } from 'node:path';
import { pathToFileURL } from 'node:url';
import { threadId } from 'node:worker_threads';
// Types only: checking the cache loads no compiler.
import type { BuildOptions } from 'esbuild';
import { BUNDLE_URL, FRAMEWORK_FORM, RUNNER_ROOT } from './framework-layout.ts';
import { installedAt } from './preload-packages.ts';

/** Bumped when the cache's layout or the compiled output's shape changes. */
export const CACHE_FORMAT = 4;

/** A package a compiled file imports, as it was found when compiled. */
export interface PackageUse {
  /** The package's name (`rxjs`, `@scope/name`). */
  name: string;
  /** The folder of the file importing it. */
  from: string;
  /** Digest of the package.json found from `from` (the runner's copy when none is near). */
  manifest: string;
  /**
   * That package.json's path: the compiled file imports the package by its absolute file
   * URL, so the same version found elsewhere (a copy removed or moved) is a miss too.
   */
  path: string;
}

/** What one strategy's compiled graph was made from, stored beside the compiled files. */
export interface CacheManifest {
  format: number;
  /** esbuild's version and the runner's folder: the compiled files embed the runner's paths. */
  key: string;
  /** The compiled entry, a file name in the cache folder. */
  entry: string;
  /**
   * Every local source compiled into the graph and the tsconfig.json files they were
   * compiled by, with content digests; a source also names its nearest tsconfig.json
   * (`''` for none), so one created nearer later is noticed.
   */
  files: { path: string; digest: string; tsconfig?: string }[];
  packages: PackageUse[];
  /** The graph imports local JavaScript files, which need the strategy module hooks. */
  needsHooks: boolean;
}

/**
 * esbuild options shared by the strategy and vendor builds: one ES module for this Node,
 * resolved as Node would (no "module" condition or field), to `outfile`'s folder.
 */
export function nodeBuildOptions(outfile: string): BuildOptions {
  return {
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node}`,
    conditions: [],
    mainFields: ['main'],
    outfile,
    logLevel: 'silent',
  };
}

/** SHA-256 of a text, hex. */
export function digestOf(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The folder compiled strategies are kept in: `TIQS_RUNNER_CACHE_DIR`, else
 * `node_modules/.cache/tiqs-runner/strategies` in the runner's folder (the usual place
 * for a package's cache; `npm ci` clears it). `undefined` when the variable is `off`.
 */
export function strategyCacheDir(): string | undefined {
  const dir = process.env.TIQS_RUNNER_CACHE_DIR;
  if (dir === 'off') return undefined;
  return dir || join(RUNNER_ROOT, 'node_modules', '.cache', 'tiqs-runner', 'strategies');
}

let esbuildVersion: string | undefined;

/**
 * What every manifest must match: the cache format, esbuild's version, the runner's
 * folder, and the framework's form (compiled files import `dist/` modules, or the
 * bundle's entries when the CLI runs from a `dist/bundle-<id>/` folder: that folder).
 */
export function cacheKey(): string {
  esbuildVersion ??= (
    JSON.parse(readFileSync(join(RUNNER_ROOT, 'node_modules/esbuild/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  // From the bundle, compiled files import its entries by their folder's URL, and each
  // build has a folder of its own (scripts/bundle-folders.mjs): a rebuild is a miss.
  const form = FRAMEWORK_FORM === 'bundle' ? `bundle@${BUNDLE_URL}` : FRAMEWORK_FORM;
  return `${CACHE_FORMAT}:${esbuildVersion}:${RUNNER_ROOT}:${form}`;
}

/** The tsconfig.json nearest to `dir`, the one esbuild compiles that folder's files by. */
export function nearestTsconfig(dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'tsconfig.json'))) return join(at, 'tsconfig.json');
    if (at === parse(at).root) return undefined;
  }
}

/**
 * The manifest's file for a strategy entry. The bundle's manifests are named apart from
 * `dist/`'s: their compiled files import other modules, and a CLI run from each in turn
 * (`TIQS_RUNNER_BUNDLE=off`, a test loading through `dist/`) should not recompile every time.
 */
export function manifestFile(cacheDir: string, entry: string): string {
  const key = FRAMEWORK_FORM === 'bundle' ? `bundle\0${entry}` : entry;
  return join(cacheDir, `${digestOf(key)}.json`);
}

/** The package.json a file in `from` gets `name` from: its nearest copy, else the runner's. */
function packageManifestOf(name: string, from: string): string | undefined {
  const at = installedAt(name, from) ?? installedAt(name, RUNNER_ROOT);
  const file = at === undefined ? undefined : join(at, 'node_modules', name, 'package.json');
  return file !== undefined && existsSync(file) ? file : undefined;
}

function readDigest(path: string): string | undefined {
  try {
    return digestOf(readFileSync(path));
  } catch {
    return undefined;
  }
}

/** The package.json `name` resolves to from `from`, and its digest, if any. */
export function packageUse(name: string, from: string): PackageUse {
  const path = packageManifestOf(name, from) ?? '';
  return { name, from, path, manifest: path === '' ? '' : (readDigest(path) ?? '') };
}

/**
 * The compiled entry of a strategy, when the cache holds one made from exactly the
 * sources on disk now: every local file's content, every imported package's
 * package.json, its path and its content (a package installed, moved, removed or upgraded), esbuild's version and the
 * runner's folder must match. Reads and hashes a few small files; loads no compiler.
 */
export function cachedStrategy(
  cacheDir: string,
  entry: string,
): { url: string; needsHooks: boolean } | undefined {
  let manifest: CacheManifest;
  try {
    manifest = JSON.parse(readFileSync(manifestFile(cacheDir, entry), 'utf8')) as CacheManifest;
  } catch {
    return undefined;
  }
  if (manifest.format !== CACHE_FORMAT || manifest.key !== cacheKey()) return undefined;
  const compiled = join(cacheDir, manifest.entry);
  if (!existsSync(compiled)) return undefined;
  for (const { path, digest, tsconfig } of manifest.files) {
    if (readDigest(path) !== digest) return undefined;
    if (tsconfig !== undefined && (nearestTsconfig(dirname(path)) ?? '') !== tsconfig)
      return undefined;
  }
  for (const p of manifest.packages) {
    const file = packageManifestOf(p.name, p.from);
    if ((file ?? '') !== p.path) return undefined;
    if (file !== undefined && readDigest(file) !== p.manifest) return undefined;
  }
  return { url: pathToFileURL(compiled).href, needsHooks: manifest.needsHooks };
}

/** Drops a strategy's manifest: its next load compiles it again. */
export function forgetStrategy(cacheDir: string, entry: string): void {
  rmSync(manifestFile(cacheDir, entry), { force: true });
}

/** Writes a file whole or not at all (a concurrent reader never sees half of it). */
export function writeAtomically(path: string, text: string): void {
  // Unique per writer: sweep workers are threads of one process, compiling side by side.
  const partial = `${path}.${process.pid}.${threadId}.${randomBytes(4).toString('hex')}.partial`;
  writeFileSync(partial, text);
  renameSync(partial, path);
}
