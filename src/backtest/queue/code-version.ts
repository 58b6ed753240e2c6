import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { BacktestSpec } from '../backtest-spec.ts';
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

const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const slashed = (path: string): string => path.split(sep).join('/');

/** Hashes files by (path relative to `root`, bytes), in code-point order of the paths. */
async function digestFiles(root: string, files: readonly string[]): Promise<string> {
  const hash = createHash('sha256');
  const named = files.map((f) => [slashed(relative(root, f)), f] as const);
  for (const [name, file] of named.sort((a, b) => byCodePoint(a[0], b[0]))) {
    const bytes = await readFile(file);
    // Lengths keep (path, bytes) pairs apart: no two file sets hash alike by concatenation.
    hash.update(`${name}\0${bytes.length}\0`).update(bytes);
  }
  return hash.digest('hex');
}

/**
 * The framework's own sources: `src/**\/*.ts` but tests; `dist/**\/*.js` for an
 * installation shipped without its sources.
 */
async function frameworkDigest(): Promise<string> {
  const src = join(RUNNER_ROOT, 'src');
  const [folder, wanted] = existsSync(src)
    ? [src, (n: string) => n.endsWith('.ts') && !n.endsWith('.test.ts')]
    : [join(RUNNER_ROOT, 'dist'), (n: string) => n.endsWith('.js')];
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile() && wanted(e.name));
  return digestFiles(
    folder,
    files.map((e) => join(e.parentPath, e.name)),
  );
}

let framework: Promise<string> | undefined;

/**
 * The local files a spec's strategies are built from: each strategy module and every file
 * it imports but packages and the framework (hashed on its own), as esbuild resolves them.
 */
async function strategyFiles(spec: BacktestSpec, root: string): Promise<string[]> {
  const modules = [
    ...new Set(spec.config.strategies.map((s) => resolve(spec.projectDir, s.module))),
  ];
  if (modules.length === 0) return [];
  const frameworkSrc = join(RUNNER_ROOT, 'src') + sep;
  try {
    const result = await build({
      entryPoints: modules,
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
  framework ??= frameworkDigest();
  const root = projectRoot(spec.file);
  const [frameworkPart, strategyPart] = await Promise.all([
    framework,
    strategyFiles(spec, root).then((files) => digestFiles(root, files)),
  ]);
  const { version } = JSON.parse(readFileSync(join(RUNNER_ROOT, 'package.json'), 'utf8')) as {
    version: string;
  };
  const digest = createHash('sha256').update(`${frameworkPart}\n${strategyPart}`).digest('hex');
  return `${version}+${digest.slice(0, 16)}`;
}
