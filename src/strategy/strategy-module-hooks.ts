import { register } from 'node:module';
import {
  BUNDLE_FRAMEWORK_ENTRIES,
  BUNDLE_PACKAGE_ENTRIES,
  BUNDLE_URL,
  DIST_URL,
  FRAMEWORK_FORM,
  RUNNER_ROOT_URL,
  sharedPackageFolders,
} from './framework-layout.ts';
import { typeScriptLoaderRegistered } from './typescript-loader.ts';

/**
 * Module hooks, run by Node on its hooks thread (so plain JavaScript, passed as a data
 * URL). Three rules, all for files outside `node_modules`:
 * - A TypeScript file that tsx would load as CommonJS (its folder has no package.json
 *   with `"type": "module"`) loads as an ES module instead. Strategies are ES modules;
 *   as CommonJS, their import of the runner fails with Node's opaque
 *   `Cannot require() ES Module … in a cycle`.
 * - A package a strategy outside the runner's folder imports but cannot find
 *   (`rxjs`, `zod`, `tiqs-runner` itself) is looked up from the runner's folder, so a bot
 *   folder needs no node_modules of its own and shares the runner's copies.
 * - When the framework runs compiled (from `dist/`), a strategy's import of one of the
 *   framework's sources (`../src/index.ts`, or `tiqs-runner` where the package maps it to
 *   `src/`) loads the compiled module instead, when there is one. The strategy then
 *   shares the running framework's module instances (one `StrategyMarket`, one error
 *   class for `instanceof`) and nothing of the framework is compiled again at start.
 *   When the CLI runs from its bundle (`dist/bundle/`), the framework's public doors
 *   (`src/index.ts`, `dist/index.js`, `tiqs-runner`, its entries) and the runner's copies
 *   of rxjs and zod load the bundle's entry files instead (framework-layout.ts), since the
 *   bundle holds the running instances.
 */
const HOOKS = `
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
let runnerRoot = '';
let compiledRoot;
let bundle;
export function initialize(data) { runnerRoot = data.runnerRoot; compiledRoot = data.compiledRoot; bundle = data.bundle; }
function bundled(specifier, url) {
  if (bundle === undefined) return undefined;
  for (const base of [runnerRoot + 'src/', runnerRoot + 'dist/']) {
    if (!url.startsWith(base)) continue;
    const entry = bundle.framework[url.slice(base.length).replace(/\\.(?:ts|js)$/, '')];
    if (entry !== undefined) return bundle.url + entry;
  }
  const entry = bundle.packages[specifier];
  const folders = bundle.folders[specifier.split('/')[0]] ?? [];
  return entry !== undefined && folders.some((folder) => url.startsWith(folder)) ? bundle.url + entry : undefined;
}
const local = (url) => url.startsWith('file:') && !url.includes('/node_modules/');
const bare = (s) => !/^(\\.|\\/|[a-zA-Z][a-zA-Z0-9+.-]*:)/.test(s);
const sourceRoot = () => runnerRoot + 'src/';
function compiled(url) {
  if (compiledRoot === undefined || !url.startsWith(sourceRoot()) || !/(?<!\\.d)\\.ts$/.test(url)) return undefined;
  const target = compiledRoot + url.slice(sourceRoot().length).replace(/\\.ts$/, '.js');
  return existsSync(fileURLToPath(target)) ? target : undefined;
}
export async function resolve(specifier, context, next) {
  let result;
  try {
    result = await next(specifier, context);
  } catch (err) {
    const parent = context.parentURL ?? '';
    if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !bare(specifier) || !local(parent) || parent.startsWith(runnerRoot)) throw err;
    try {
      result = await next(specifier, { ...context, parentURL: runnerRoot + 'package.json' });
    } catch {
      throw err;
    }
  }
  const target = bundled(specifier, result.url) ?? compiled(result.url);
  if (target !== undefined) return { url: target, format: 'module', shortCircuit: true };
  if (result.format === 'commonjs' && local(result.url) && /\\.tsx?$/.test(new URL(result.url).pathname)) {
    return { ...result, format: 'module' };
  }
  return result;
}
`;

/** Whether the hooks are installed: not yet, or before or after tsx's. */
let installed: 'no' | 'before-tsx' | 'after-tsx' = 'no';

/**
 * Installs the strategy module hooks on this thread, once, after tsx's loader if that is
 * registered: hooks registered last run first, and the ES-module rule must overrule tsx's
 * choice of format. Installed before tsx (a JavaScript strategy loaded first), they are
 * installed again on top once tsx is there; the rules give the same answer twice. Call
 * before importing a strategy; harmless where a bundler (vitest) loads TypeScript.
 */
export function registerStrategyModuleHooks(): void {
  const withTsx = typeScriptLoaderRegistered();
  if (installed === 'after-tsx' || (installed === 'before-tsx' && !withTsx)) return;
  installed = withTsx ? 'after-tsx' : 'before-tsx';
  const runnerRoot = RUNNER_ROOT_URL;
  const compiledRoot = FRAMEWORK_FORM === 'source' ? undefined : DIST_URL;
  const bundle =
    FRAMEWORK_FORM === 'bundle'
      ? {
          url: BUNDLE_URL,
          framework: BUNDLE_FRAMEWORK_ENTRIES,
          packages: BUNDLE_PACKAGE_ENTRIES,
          folders: sharedPackageFolders(),
        }
      : undefined;
  register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, {
    data: { runnerRoot, compiledRoot, bundle },
  });
}
