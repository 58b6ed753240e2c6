#!/usr/bin/env node
// Launcher: runs the compiled framework in dist/ (built by `npm install` through the
// "prepare" script, or by `npm run build`). TypeScript is compiled on the fly only for
// strategy files, by tsx, when a strategy is loaded (src/strategy/load-strategy.ts).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    'tiqs-runner: the compiled framework is missing (dist/cli/main.js); run `npm run build` first\n',
  );
  process.exit(1);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv);
