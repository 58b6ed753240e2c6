import { preloadPackages } from './preload-packages.ts';

/** File names tsx compiles: a strategy with one of these needs the TypeScript loader. */
const TYPESCRIPT_FILE = /\.(?:[cm]?ts|tsx)$/;

let registering: Promise<void> | undefined;
let registered = false;

/** Whether this thread has registered tsx's loader through {@link ensureTypeScriptLoader}. */
export function typeScriptLoaderRegistered(): boolean {
  return registered;
}

/**
 * Makes `import()` of a TypeScript strategy file work, once per thread. The framework
 * itself runs compiled, so tsx (and esbuild behind it) is loaded only here, when the
 * first TypeScript strategy is; a JavaScript strategy never pays for it. Where the
 * framework itself runs as TypeScript (vitest, or benches under `--import tsx`), a
 * loader is already in place and nothing is registered.
 */
export function ensureTypeScriptLoader(file: string): Promise<void> {
  if (!TYPESCRIPT_FILE.test(file) || !import.meta.url.endsWith('.js')) return Promise.resolve();
  registering ??= (async () => {
    // Once loader hooks are registered, every module loaded after pays a round trip to
    // the hooks thread, and the framework's public entry (what strategies import) is
    // dozens of modules: load it, and the first strategy's packages, natively first, so
    // the strategy finds them cached.
    await import(new URL('../index.js', import.meta.url).href);
    await preloadPackages(file);
    const { register } = await import('tsx/esm/api');
    register();
    registered = true;
  })();
  return registering;
}
