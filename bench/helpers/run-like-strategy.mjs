#!/usr/bin/env node
// Runs a TypeScript file the way `tiqs-runner` (bin/tiqs-runner.js) loads a strategy
// (src/strategy/load-strategy.ts): plain node, the framework compiled in dist/, and the
// file taken from the strategy cache (compiled by esbuild on a miss, the framework's
// sources it imports pointed at dist/), falling back to tsx and the strategy module hooks
// only where the cache cannot serve it. Then calls the file's `main(args)` for the exit
// code. The cache folder is TIQS_RUNNER_CACHE_DIR's, as for the CLI.
//   node bench/helpers/run-like-strategy.mjs FILE.ts [ARGS…]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = new URL('../../dist/strategy/', import.meta.url);
const { compiledStrategy, ensureTypeScriptLoader, importCompiledStrategy } = await import(
  new URL('typescript-loader.js', dist).href
);
const { registerStrategyModuleHooks } = await import(
  new URL('strategy-module-hooks.js', dist).href
);
const [file, ...args] = process.argv.slice(2);
if (file === undefined) {
  process.stderr.write('usage: run-like-strategy.mjs FILE.ts [ARGS…]\n');
  process.exit(2);
}
const path = resolve(file);
let mod;
const compiled = await compiledStrategy(path);
if (compiled !== undefined) {
  if (compiled.needsHooks) registerStrategyModuleHooks();
  mod = await importCompiledStrategy(path, compiled);
}
if (mod === undefined) {
  await ensureTypeScriptLoader(path);
  registerStrategyModuleHooks();
  mod = await import(pathToFileURL(path).href);
}
process.exitCode = await mod.main(args);
