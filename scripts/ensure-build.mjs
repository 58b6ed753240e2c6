#!/usr/bin/env node
// Builds dist/ (tsc -p tsconfig.build.json) when it is missing or older than a framework
// source, so the CLI that tests and `npm start` spawn never runs stale compiled code.
//   --force   build even when dist/ looks fresh (`npm run build`)
//   --strict  exit non-zero when tsc reports errors (`npm run build`, `prepare`); without
//             it, type errors are the typecheck's to report and the emitted code is used
// A lock directory keeps two concurrent runs (parallel test runs) from building at once;
// the second waits for the first and then finds dist/ fresh.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'dist', '.build-stamp');
const lock = join(root, 'dist.lock');
const LOCK_STALE_MS = 5 * 60_000;
const force = process.argv.includes('--force');
const strict = process.argv.includes('--strict');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
      newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

const fresh = () =>
  mtime(stamp) >=
  Math.max(newestSource(join(root, 'src')), mtime(join(root, 'tsconfig.build.json')));

function acquire() {
  const deadline = Date.now() + LOCK_STALE_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      return;
    } catch {
      // A lock left by a killed build is taken over once it is older than any build.
      if (Date.now() - mtime(lock) > LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`ensure-build: ${lock} held too long`);
      else spawnSync(process.execPath, ['-e', 'setTimeout(() => {}, 200)']);
    }
  }
}

let status = 0;
if (force || !fresh()) {
  acquire();
  try {
    if (force || !fresh()) {
      const started = Date.now();
      const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
      const run = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
        cwd: root,
        stdio: 'inherit',
      });
      status = run.status ?? 1;
      if (status !== 0) console.warn(`ensure-build: tsc exited ${run.status ?? run.signal}`);
      // Stamped with the start: a source saved during the build is newer, so rebuilt next time.
      if (status === 0 || !strict) {
        writeFileSync(stamp, `${new Date(started).toISOString()}\n`);
        utimesSync(stamp, started / 1000, started / 1000);
      }
      console.log(`ensure-build: dist/ rebuilt in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
process.exitCode = strict ? status : 0;
