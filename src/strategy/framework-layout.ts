import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * How the running framework was loaded: as its TypeScript sources (vitest, tsx), as the
 * compiled modules of `dist/`, or as the CLI's build-time bundle in a `dist/bundle-<id>/`
 * folder (scripts/build-bundle.mjs), where rxjs and zod are bundled in too.
 */
export type FrameworkForm = 'source' | 'compiled' | 'bundle';

/**
 * This module's own URL: `src/strategy/framework-layout.ts`, `dist/strategy/…js`, or a
 * chunk of a flat `dist/bundle-<id>/` folder. All three sit two folders below the
 * runner's root, which is why each bundle folder is flat.
 */
const HERE = import.meta.url;

/** The form the framework runs in (see {@link FrameworkForm}). */
export const FRAMEWORK_FORM: FrameworkForm = !HERE.endsWith('.js')
  ? 'source'
  : /\/dist\/bundle(?:-[0-9a-z-]+)?\/[^/]+\.js$/.test(HERE)
    ? 'bundle'
    : 'compiled';

/** The runner's own folder as a URL, with a trailing slash. */
export const RUNNER_ROOT_URL = new URL('../../', HERE).href;

/** The runner's own folder as a path, without a trailing slash. */
export const RUNNER_ROOT = fileURLToPath(RUNNER_ROOT_URL).replace(/\/$/, '');

/** The compiled framework's folder (`dist/`), whatever form runs. */
export const DIST_URL = `${RUNNER_ROOT_URL}dist/`;

/**
 * The bundle's folder (trailing slash): run from a bundle, the folder this process was
 * started from, which no later build rewrites (a rebuild goes to a new folder, see
 * scripts/bundle-folders.mjs); otherwise the current build's, as `dist/bundle-current`
 * names it (or `dist/bundle/` when none is built).
 */
export const BUNDLE_URL =
  FRAMEWORK_FORM === 'bundle' ? new URL('./', HERE).href : `${DIST_URL}${currentBundle()}/`;

/** The current build's folder name in `dist/` (see {@link BUNDLE_URL}). */
function currentBundle(): string {
  try {
    const name = readFileSync(new URL('bundle-current', DIST_URL), 'utf8').trim();
    return /^bundle-[0-9a-z-]+$/.test(name) ? name : 'bundle';
  } catch {
    return 'bundle';
  }
}

/**
 * The framework modules that are entry files of the bundle, by their path below `src/`
 * (and `dist/`) without extension: the public doors a strategy imports, so a strategy
 * gets the very module instances the bundled CLI runs (one `StrategyMarket`, one error
 * class for `instanceof`).
 */
export const BUNDLE_FRAMEWORK_ENTRIES: Readonly<Record<string, string>> = {
  index: 'index.js',
  'entries/runtime': 'runtime.js',
  'entries/client': 'client.js',
  'entries/sim': 'sim.js',
  'entries/backtest': 'backtest.js',
};

/**
 * The packages bundled into the CLI that strategies share with the framework, by the
 * specifier a strategy imports: each is an entry file of the bundle re-exporting the
 * bundle's one copy (rxjs's ES-module build, zod), so a strategy's `Observable` or
 * `z.ZodType` is the framework's.
 */
export const BUNDLE_PACKAGE_ENTRIES: Readonly<Record<string, string>> = {
  rxjs: 'vendor-rxjs.js',
  'rxjs/operators': 'vendor-rxjs-operators.js',
  zod: 'vendor-zod.js',
  'zod/v4': 'vendor-zod-v4.js',
};

/**
 * When the framework runs from the bundle, the bundle entry a strategy's import should
 * load instead of `url`, the file Node or esbuild resolved it to: the framework's own
 * public modules (as sources in `src/` or compiled in `dist/`) and the runner's copy of
 * a shared package (see {@link BUNDLE_PACKAGE_ENTRIES}). `undefined` otherwise, and
 * always when the framework does not run from the bundle.
 */
export function bundleCounterpart(specifier: string, url: string): string | undefined {
  if (FRAMEWORK_FORM !== 'bundle') return undefined;
  for (const base of [`${RUNNER_ROOT_URL}src/`, DIST_URL]) {
    if (!url.startsWith(base)) continue;
    const entry = BUNDLE_FRAMEWORK_ENTRIES[url.slice(base.length).replace(/\.(?:ts|js)$/, '')];
    if (entry !== undefined) return BUNDLE_URL + entry;
  }
  const vendored = BUNDLE_PACKAGE_ENTRIES[specifier];
  const folders = sharedPackageFolders()[specifier.split('/')[0] ?? specifier] ?? [];
  if (vendored !== undefined && folders.some((folder) => url.startsWith(folder)))
    return BUNDLE_URL + vendored;
  return undefined;
}

let packageFolders: Record<string, string[]> | undefined;

/**
 * The folder URLs (trailing slash) of the runner's own copy of each package in
 * {@link BUNDLE_PACKAGE_ENTRIES}: as installed, and its real path when node_modules or
 * the package is a symbolic link (Node and esbuild resolve to the real path).
 */
export function sharedPackageFolders(): Record<string, string[]> {
  if (packageFolders !== undefined) return packageFolders;
  const folders: Record<string, string[]> = {};
  for (const specifier of Object.keys(BUNDLE_PACKAGE_ENTRIES)) {
    const name = specifier.split('/')[0] ?? specifier;
    const installed = join(RUNNER_ROOT, 'node_modules', name);
    let real = installed;
    try {
      real = realpathSync(installed);
    } catch {
      // Not installed: nothing resolves there either.
    }
    folders[name] = [...new Set([installed, real])].map((dir) => `${pathToFileURL(dir).href}/`);
  }
  packageFolders = folders;
  return folders;
}
