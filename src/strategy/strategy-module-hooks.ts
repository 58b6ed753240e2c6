import { register } from 'node:module';

/**
 * Module hooks, run by Node on its hooks thread (so plain JavaScript, passed as a data
 * URL). Two rules, both for files outside `node_modules`:
 * - A TypeScript file that tsx would load as CommonJS (its folder has no package.json
 *   with `"type": "module"`) loads as an ES module instead. Strategies are ES modules;
 *   as CommonJS, their import of the runner fails with Node's opaque
 *   `Cannot require() ES Module … in a cycle`.
 * - A package a strategy outside the runner's folder imports but cannot find
 *   (`rxjs`, `zod`, `tiqs-runner` itself) is looked up from the runner's folder, so a bot
 *   folder needs no node_modules of its own and shares the runner's copies.
 */
const HOOKS = `
let runnerRoot = '';
export function initialize(data) { runnerRoot = data.runnerRoot; }
const local = (url) => url.startsWith('file:') && !url.includes('/node_modules/');
const bare = (s) => !/^(\\.|\\/|[a-zA-Z][a-zA-Z0-9+.-]*:)/.test(s);
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
  if (result.format === 'commonjs' && local(result.url) && /\\.tsx?$/.test(new URL(result.url).pathname)) {
    return { ...result, format: 'module' };
  }
  return result;
}
`;

let registered = false;

/**
 * Installs the strategy module hooks on this thread, once. Call before importing a
 * strategy; harmless where a bundler (vitest) loads TypeScript instead of Node.
 */
export function registerStrategyModuleHooks(): void {
  if (registered) return;
  registered = true;
  const runnerRoot = new URL('../../', import.meta.url).href;
  register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, { data: { runnerRoot } });
}
