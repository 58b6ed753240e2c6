#!/usr/bin/env node
// Runs a TypeScript file the way `tiqs-runner` (bin/tiqs-runner.js) runs a strategy: plain
// node, the framework compiled in dist/, and the file compiled on load by the framework's
// own loader path (ensureTypeScriptLoader, then the strategy module hooks, as
// src/strategy/load-strategy.ts does), so the file's imports of the framework's sources
// load the compiled modules. Then calls the file's `main(args)` for the exit code.
//   node bench/helpers/run-like-strategy.mjs FILE.ts [ARGS…]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = new URL('../../dist/strategy/', import.meta.url);
const { ensureTypeScriptLoader } = await import(new URL('typescript-loader.js', dist).href);
const { registerStrategyModuleHooks } = await import(
  new URL('strategy-module-hooks.js', dist).href
);
const [file, ...args] = process.argv.slice(2);
if (file === undefined) {
  process.stderr.write('usage: run-like-strategy.mjs FILE.ts [ARGS…]\n');
  process.exit(2);
}
const path = resolve(file);
await ensureTypeScriptLoader(path);
registerStrategyModuleHooks();
const { main } = await import(pathToFileURL(path).href);
process.exitCode = await main(args);
