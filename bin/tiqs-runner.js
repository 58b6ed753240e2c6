#!/usr/bin/env node
// Launcher: runs the compiled framework, built by `npm install` through the "prepare"
// script, or by `npm run build` (scripts/ensure-build.mjs). It runs the CLI's bundle
// (dist/bundle/main.js: the framework and most of its packages in a few dozen files,
// which starts in about half the time) when it was built from the dist/ modules on disk,
// i.e. its stamp is not older than dist/'s stamp nor tsc's last run (.tsbuildinfo), and
// dist/cli/main.js otherwise (a bundle missing or stale, or TIQS_RUNNER_BUNDLE=off). TypeScript is compiled only for
// strategy files (src/strategy/load-strategy.ts).
import { existsSync, statSync } from 'node:fs';

// A missing stamp is the oldest (a packed package ships no dist/ stamp), except the
// bundle's own: no stamp, no finished bundle.
const stampTime = (path, missing = 0) => {
  try {
    return statSync(new URL(path, import.meta.url)).mtimeMs;
  } catch {
    return missing;
  }
};
const bundled =
  process.env.TIQS_RUNNER_BUNDLE !== 'off' &&
  stampTime('../dist/bundle/.build-stamp', Number.NaN) >=
    Math.max(stampTime('../dist/.build-stamp'), stampTime('../dist/.tsbuildinfo'));
const entry = new URL(bundled ? '../dist/bundle/main.js' : '../dist/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    'tiqs-runner: the compiled framework is missing (dist/cli/main.js); run `npm run build` first\n',
  );
  process.exit(1);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv);
