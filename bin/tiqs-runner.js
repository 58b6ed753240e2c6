#!/usr/bin/env node
// Launcher: runs the compiled framework, built by `npm install` through the "prepare"
// script, or by `npm run build` (scripts/ensure-build.mjs). It runs the CLI's bundle
// (dist/<current>/main.js, the folder dist/bundle-current names: the framework and most
// of its packages in a few dozen files, which starts in about half the time) when it was
// built from the dist/ modules on disk, i.e. its stamp (the pointer's mtime) is not older
// than dist/'s stamp nor tsc's last run (.tsbuildinfo), and dist/cli/main.js otherwise (a
// bundle missing or stale, or TIQS_RUNNER_BUNDLE=off). A process started from a bundle
// holds its folder (`.holders/<pid>`), which a later build then never removes
// (scripts/bundle-folders.mjs). TypeScript is compiled only for strategy files
// (src/strategy/load-strategy.ts).
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';

// A missing stamp is the oldest (a packed package ships no dist/ stamp), except the
// bundle's own: no stamp, no finished bundle.
const stampTime = (path, missing = 0) => {
  try {
    return statSync(new URL(path, import.meta.url)).mtimeMs;
  } catch {
    return missing;
  }
};
const pointer = '../dist/bundle-current';
// Read before the stamp: a build renames a new pointer over it with its stamp already set.
let folder;
try {
  folder = readFileSync(new URL(pointer, import.meta.url), 'utf8').trim();
} catch {
  folder = undefined;
}
const bundled =
  process.env.TIQS_RUNNER_BUNDLE !== 'off' &&
  folder !== undefined &&
  /^bundle-[0-9a-z-]+$/.test(folder) &&
  stampTime(pointer, Number.NaN) >=
    Math.max(stampTime('../dist/.build-stamp'), stampTime('../dist/.tsbuildinfo'));
const entry = new URL(
  bundled ? `../dist/${folder}/main.js` : '../dist/cli/main.js',
  import.meta.url,
);
if (!existsSync(entry)) {
  process.stderr.write(
    'tiqs-runner: the compiled framework is missing (dist/cli/main.js); run `npm run build` first\n',
  );
  process.exit(1);
}
if (bundled) {
  // This process loads from the folder all its life (lazy chunks, sweep threads): held.
  const held = new URL(`../dist/${folder}/.holders/${process.pid}`, import.meta.url);
  try {
    mkdirSync(new URL('./', held), { recursive: true });
    writeFileSync(held, '');
    process.on('exit', () => rmSync(held, { force: true }));
  } catch {
    // A read-only install: nothing rebuilds it under us either.
  }
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv);
