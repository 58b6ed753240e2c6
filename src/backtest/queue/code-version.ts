import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { BacktestSpec } from '../backtest-spec.ts';
import { byCodePoint } from './code-point-order.ts';
import { DigestCache } from './digest-cache.ts';
import { projectRoot } from './project-root.ts';

/** The spec's strategy modules could not be read to take the code version. */
export class CodeVersionError extends Error {
  override name = 'CodeVersionError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * The tiqs-runner package's folder: the nearest package.json named `tiqs-runner` above
 * this module, found by walking up so it holds whether the framework runs from `src/`,
 * `dist/` or a flat bundle folder.
 */
function runnerRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'tiqs-runner')
      return dir;
    const up = dirname(dir);
    if (up === dir) throw new CodeVersionError('the tiqs-runner package folder is not found');
    dir = up;
  }
}

const RUNNER_ROOT = runnerRoot();
/** The package's version, read once: it is what this process runs. */
const RUNNER_VERSION = (
  JSON.parse(readFileSync(join(RUNNER_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

/**
 * The compiled framework that runs (dist/) is older than the sources on disk (src/): the
 * code version, a digest of src/, would name code that is not what runs.
 */
export class StaleBuildError extends CodeVersionError {
  override name = 'StaleBuildError';
}

/** Newest modification time of the framework's sources (`*.ts` but tests) under `dir`. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
      newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/**
 * Refuses a compiled framework built before the last edit of its sources. The code version
 * hashes `src/`, but the CLI runs `dist/` (or `dist/bundle/`, built from it): only when
 * `dist/.build-stamp` (written by scripts/ensure-build.mjs with the build's START time, so
 * a source saved during a build counts as newer) is not older than every `src/` file is the
 * digest the code that runs. The same mtime test the build script uses to decide to
 * rebuild. Code running from `src/` (tests, through vitest) or an install without `src/`
 * (the digest then hashes dist/ itself) passes. `root`/`running` are injected in tests.
 */
export function checkBuildFresh(
  root: string = RUNNER_ROOT,
  running: string = fileURLToPath(import.meta.url),
): void {
  const dist = join(root, 'dist');
  const src = join(root, 'src');
  if (!running.startsWith(dist + sep) || !existsSync(src)) return;
  const stamp = statSync(join(dist, '.build-stamp'), { throwIfNoEntry: false });
  // An installed package (npm pack leaves the stamp out, and npm sets every file's mtime
  // alike): its dist/ and src/ come from one pack, and nobody edits or builds it there.
  if (stamp === undefined && root.split(sep).includes('node_modules')) return;
  if (stamp !== undefined && stamp.mtimeMs >= newestSource(src)) return;
  throw new StaleBuildError(
    `the compiled framework in ${dist} is older than its sources in ${src}: run \`npm run build\` (the code version names src/, so a stale build would run other code under its name)`,
  );
}

const slashed = (path: string): string => path.split(sep).join('/');

/**
 * Hashes files by (path relative to `root`, sha256 of the bytes), in code-point order of
 * the paths. Each file's sha256 comes through `<root>/var/cache`'s {@link DigestCache}, so
 * an unchanged file is not read again (a worker takes this for every job).
 */
async function digestFiles(root: string, files: readonly string[]): Promise<string> {
  const cache = DigestCache.for(root);
  const hash = createHash('sha256');
  const named = files.map((f) => [slashed(relative(root, f)), f] as const);
  for (const [name, file] of named.sort((a, b) => byCodePoint(a[0], b[0]))) {
    // NUL-separated lines: no two (path, digest) lists hash alike by concatenation.
    hash.update(`${name}\0${await cache.sha256(file)}\n`);
  }
  await cache.save();
  return hash.digest('hex');
}

/**
 * The framework's own sources: `src/**\/*.ts` but tests; `dist/**\/*.js` for an
 * installation shipped without its sources.
 */
async function frameworkDigest(): Promise<string> {
  checkBuildFresh();
  const src = join(RUNNER_ROOT, 'src');
  const [folder, wanted] = existsSync(src)
    ? [src, (n: string) => n.endsWith('.ts') && !n.endsWith('.test.ts')]
    : [join(RUNNER_ROOT, 'dist'), (n: string) => n.endsWith('.js')];
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile() && wanted(e.name));
  return digestFiles(
    RUNNER_ROOT,
    files.map((e) => join(e.parentPath, e.name)),
  );
}

let framework: Promise<string> | undefined;

/**
 * Takes (once per process) the framework part of the code version, checking first that
 * the build is fresh ({@link StaleBuildError} if not). A worker calls it at START: the
 * code it loaded then is what runs all its jobs, whatever is saved or rebuilt later.
 */
export function frameworkVersion(): Promise<string> {
  framework ??= frameworkDigest();
  return framework;
}

/** What a set of strategy modules was last found to import, and the stamp it was found at. */
const graphs = new Map<string, { readonly files: string[]; readonly stamp: string }>();

/**
 * The identity of a module graph's files and of the folders holding them: any edit of a
 * file, and any file added beside one (which could change how an import resolves), moves
 * it. Undefined when one is gone.
 */
async function stampOf(files: readonly string[]): Promise<string | undefined> {
  try {
    const paths = [...new Set([...files, ...files.map((f) => dirname(f))])];
    const infos = await Promise.all(paths.map((p) => stat(p, { bigint: true })));
    return infos.map((i) => `${i.ino}:${i.size}:${i.mtimeNs}:${i.ctimeNs}`).join(' ');
  } catch {
    return undefined;
  }
}

/** A change this close (ms) before the graph was read may be followed by another unseen. */
const RACY_MS = 2_000;

/** Whether every file of `files` and each folder holding one last changed before `ms`. */
async function settledBefore(files: readonly string[], ms: number): Promise<boolean> {
  const paths = [...new Set([...files, ...files.map((f) => dirname(f))])];
  const infos = await Promise.all(paths.map((p) => stat(p).catch(() => undefined)));
  return infos.every((i) => i !== undefined && i.ctimeMs < ms && i.mtimeMs < ms);
}

/**
 * The local files a spec's strategies are built from: each strategy module and every file
 * it imports but packages and the framework (hashed on its own), as esbuild resolves them;
 * found again only when a file of the graph or a folder holding one changed since.
 */
async function strategyFiles(spec: BacktestSpec, root: string): Promise<string[]> {
  const modules = [
    ...new Set(spec.config.strategies.map((s) => resolve(spec.projectDir, s.module))),
  ];
  if (modules.length === 0) return [];
  const key = `${root}\0${modules.join('\0')}`;
  const known = graphs.get(key);
  if (known !== undefined && (await stampOf(known.files)) === known.stamp) return known.files;
  const startedMs = Date.now();
  const files = await importGraph(spec, root, modules);
  const stamp = await stampOf(files);
  // Remembered only when nothing of it changed just before or while esbuild read it (a
  // `git pull` under way): a stamp taken after such a change could hide it for good.
  if (stamp !== undefined && (await settledBefore(files, startedMs - RACY_MS)))
    graphs.set(key, { files, stamp });
  return files;
}

/** Every local file `modules` import, as esbuild resolves them. */
async function importGraph(
  spec: BacktestSpec,
  root: string,
  modules: readonly string[],
): Promise<string[]> {
  const frameworkSrc = join(RUNNER_ROOT, 'src') + sep;
  try {
    const result = await build({
      entryPoints: [...modules],
      bundle: true,
      write: false,
      metafile: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      outdir: join(root, '.code-version'),
      absWorkingDir: root,
      logLevel: 'silent',
      // The framework's sources count already: read none of them again.
      plugins: [
        {
          name: 'framework-aside',
          setup: (b) =>
            b.onLoad({ filter: /.*/ }, (args) =>
              args.path.startsWith(frameworkSrc) ? { contents: '', loader: 'js' } : undefined,
            ),
        },
      ],
    });
    return Object.keys(result.metafile.inputs)
      .map((input) => resolve(root, input))
      .filter(
        (file) => !file.startsWith(frameworkSrc) && !file.includes(`${sep}node_modules${sep}`),
      );
  } catch (err) {
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new CodeVersionError(`${spec.file}: cannot read its strategies' sources: ${why}`, {
      cause: err,
    });
  }
}

/**
 * The code a sweep's runs depend on, as `<package version>+<16 hex>`: the tiqs-runner
 * package's version and a sha256 over the framework's source files and the spec's strategy
 * modules with the local files they import (paths relative to the project root, bytes).
 * Not the git state: an uncommitted edit changes it, a commit alone does not. A submitter
 * and its workers must agree on it, so a run never mixes two versions of the code.
 */
export async function codeVersion(spec: BacktestSpec): Promise<string> {
  const root = projectRoot(spec.file);
  const [frameworkPart, strategyPart] = await Promise.all([
    frameworkVersion(),
    strategyFiles(spec, root).then((files) => digestFiles(root, files)),
  ]);
  const digest = createHash('sha256').update(`${frameworkPart}\n${strategyPart}`).digest('hex');
  return `${RUNNER_VERSION}+${digest.slice(0, 16)}`;
}
