import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { installLazySourceMaps } from '../logging/lazy-source-maps.ts';
import { BUNDLE_FRAMEWORK_ENTRIES, BUNDLE_URL, FRAMEWORK_FORM } from './framework-layout.ts';
import { preloadPackages } from './preload-packages.ts';
import { cachedStrategy, forgetStrategy, strategyCacheDir } from './strategy-cache.ts';

/** File names tsx compiles: a strategy with one of these needs the TypeScript loader. */
const TYPESCRIPT_FILE = /\.(?:[cm]?ts|tsx)$/;
/** The framework runs compiled (from dist/), not as TypeScript under vitest or tsx. */
const COMPILED = import.meta.url.endsWith('.js');

let registering: Promise<void> | undefined;
let registered = false;

/** Whether this thread has registered tsx's loader through {@link ensureTypeScriptLoader}. */
export function typeScriptLoaderRegistered(): boolean {
  return registered;
}

/** A TypeScript strategy compiled into the cache, to import instead of its source. */
export interface CompiledStrategy {
  /** The compiled entry's file URL. */
  url: string;
  /** It imports local JavaScript files, whose own imports need the strategy module hooks. */
  needsHooks: boolean;
}

/** Whether `dir` is, or can be made, a folder this process may write in. */
function writableFolder(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The compiled form of a TypeScript strategy, from the strategy cache when it holds one
 * made from the sources on disk now, else compiled by esbuild into it; `undefined` for a
 * JavaScript strategy, where the framework itself runs as TypeScript, when the cache is
 * off (`TIQS_RUNNER_CACHE_DIR=off`), or when the graph cannot be cached or esbuild fails
 * (said in one line on stderr), or quietly when the cache folder cannot be written (a
 * read-only install): the strategy is then loaded by tsx as before. A fresh cache starts
 * neither tsx nor esbuild.
 */
export async function compiledStrategy(file: string): Promise<CompiledStrategy | undefined> {
  const cacheDir = strategyCacheDir();
  if (!TYPESCRIPT_FILE.test(file) || !COMPILED || cacheDir === undefined || !existsSync(file))
    return undefined;
  let found = cachedStrategy(cacheDir, file);
  if (found === undefined) {
    // A read-only install (or a cache path that cannot be a folder): tsx, quietly, without
    // loading esbuild only to fail writing on every start.
    if (!writableFolder(cacheDir)) return undefined;
    try {
      const { compileStrategy } = await import('./compile-strategy.ts');
      found = await compileStrategy(file, cacheDir);
    } catch (err) {
      // esbuild's own message is in `errors`; its `message` starts "Build failed with…".
      const first = (err as { errors?: { text?: string }[] }).errors?.[0]?.text;
      const reason = (first ?? (err as Error).message ?? String(err)).split('\n')[0];
      process.stderr.write(
        `tiqs-runner: strategy ${file} not compiled into the cache (${reason}); loading it with tsx\n`,
      );
      return undefined;
    }
  }
  return found;
}

/**
 * Stack traces name the strategy's own lines (the cache keeps source maps; tsx keeps its
 * own), and the framework's `src/` lines when it runs compiled; a map is read only when
 * a trace first prints one of its file's frames.
 */
export function mapStackTraces(): void {
  if (COMPILED) installLazySourceMaps();
}

/** Errors Node raises while linking, before any of the module's code ran. */
const LINK_ERRORS = new Set([
  'ERR_MODULE_NOT_FOUND',
  'ERR_PACKAGE_PATH_NOT_EXPORTED',
  'ERR_UNSUPPORTED_DIR_IMPORT',
]);

function isLinkError(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') return LINK_ERRORS.has(code);
  return err instanceof SyntaxError && /does not provide an export named/.test(err.message);
}

/**
 * Imports a strategy's compiled entry. If it cannot be linked (something it imports by
 * path is gone: a package copy removed, a cache file deleted), none of its code has run:
 * its manifest is dropped, so the next start compiles it again, and `undefined` says
 * "load the source with tsx" — a stale cache entry never stops a strategy that loads.
 * An error from the strategy's own code is thrown as it is.
 */
export async function importCompiledStrategy(
  file: string,
  compiled: CompiledStrategy,
): Promise<{ default?: unknown } | undefined> {
  try {
    return (await import(compiled.url)) as { default?: unknown };
  } catch (err) {
    const cacheDir = strategyCacheDir();
    if (!isLinkError(err) || cacheDir === undefined) throw err;
    forgetStrategy(cacheDir, file);
    const reason = ((err as Error).message ?? String(err)).split('\n')[0];
    process.stderr.write(
      `tiqs-runner: strategy ${file}: its cached compilation no longer loads (${reason}); loading it with tsx, the next start compiles it again\n`,
    );
    return undefined;
  }
}

/**
 * Makes `import()` of a TypeScript strategy file work, once per thread. The framework
 * itself runs compiled, so tsx (and esbuild behind it) is loaded only here, when the
 * first TypeScript strategy is that the strategy cache could not serve; a JavaScript
 * strategy never pays for it. Where the framework itself runs as TypeScript (vitest, or
 * benches under `--import tsx`), a loader is already in place and nothing is registered.
 */
export function ensureTypeScriptLoader(file: string): Promise<void> {
  if (!TYPESCRIPT_FILE.test(file) || !COMPILED) return Promise.resolve();
  registering ??= (async () => {
    // Once loader hooks are registered, every module loaded after pays a round trip to
    // the hooks thread, and the framework's public entry (what strategies import) is
    // dozens of modules: load it, and the first strategy's packages, natively first, so
    // the strategy finds them cached.
    await import(
      FRAMEWORK_FORM === 'bundle'
        ? `${BUNDLE_URL}${BUNDLE_FRAMEWORK_ENTRIES.index}`
        : new URL('../index.js', import.meta.url).href
    );
    await preloadPackages(file);
    const { register } = await import('tsx/esm/api');
    register();
    registered = true;
  })();
  return registering;
}
