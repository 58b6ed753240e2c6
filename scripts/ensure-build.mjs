#!/usr/bin/env node
// Builds dist/ (tsc -p tsconfig.build.json) when it is missing or older than a framework
// source, so the CLI that tests and `npm start` spawn never runs stale compiled code.
//   --force   build even when dist/ looks fresh (`npm run build`)
//   --strict  exit non-zero when tsc reports errors (`npm run build`, `prepare`); without
//             it, type errors are the typecheck's to report and the emitted code is used
// A lock directory holding the builder's pid keeps two concurrent runs (parallel test
// runs) from building at once; the second waits for the first and then finds dist/ fresh.
// A lock whose process is gone (a build stopped by Ctrl-C) is taken over at once.
// --force builds from scratch (dist/ removed first), so outputs of deleted sources and a
// partial dist/ never survive `npm run build`.
// After tsc, the CLI's bundle is built from dist/ into a new folder dist/bundle-<id>/
// (scripts/build-bundle.mjs), named current by dist/bundle-current, and rebuilt alone when
// it is older than dist/, its build script or the installed packages
// (node_modules/.package-lock.json). A bundle that fails to build is not made current, so
// bin/tiqs-runner.js runs dist/cli/main.js: one warning, never a failed install (the
// bundle only makes the start faster; test/cli/bundled-cli.test.ts fails). Earlier bundle
// folders survive even --force: a running process may still load from its own.
import { spawnSync } from 'node:child_process';
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'dist', '.build-stamp');
// The current bundle folder's name; its mtime is that build's start (scripts/bundle-folders.mjs).
const bundleStamp = join(root, 'dist', 'bundle-current');
const lock = join(root, 'dist.lock');
const LOCK_WAIT_MS = 10 * 60_000;
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
  Math.max(
    newestSource(join(root, 'src')),
    mtime(join(root, 'tsconfig.build.json')),
    mtime(join(root, 'tsconfig.json')),
  );

const bundleFresh = () =>
  mtime(bundleStamp) >=
  Math.max(
    mtime(stamp),
    mtime(join(root, 'dist', '.tsbuildinfo')),
    mtime(join(root, 'scripts', 'build-bundle.mjs')),
    mtime(join(root, 'node_modules', '.package-lock.json')),
  );

/**
 * Builds a new bundle folder, made current (dist/bundle-current) stamped with the build's
 * start; a failure is one warning. The pointer goes first: a bundle built from an older
 * dist/ is never started once this build of dist/ has begun.
 */
async function bundle() {
  const started = Date.now();
  rmSync(bundleStamp, { force: true });
  try {
    const { buildBundle } = await import('./build-bundle.mjs');
    const { external, folder, removed } = await buildBundle(root, started);
    console.log(
      `ensure-build: dist/${folder}/ built in ${((Date.now() - started) / 1000).toFixed(1)} s (${external.length} packages left external: dist/${folder}/bundle-info.json${removed.length > 0 ? `; removed ${removed.length} old build(s)` : ''})`,
    );
  } catch (err) {
    console.warn(`ensure-build: bundle not built (${err?.message ?? err}); the CLI runs dist/`);
  }
}

/** Empties dist/ for a build from scratch, but for the bundle folders (see above). */
function cleanDist() {
  let names = [];
  try {
    names = readdirSync(join(root, 'dist'));
  } catch {
    return;
  }
  for (const name of names)
    if (!/^bundle(?:-|$)/.test(name) || name === 'bundle-current')
      rmSync(join(root, 'dist', name), { recursive: true, force: true });
}

/** Whether the process that holds the lock is still running (unknown counts as running). */
function holderAlive() {
  let pid;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    // Just created, pid not written yet: give it the benefit of the doubt for a moment.
    return Date.now() - mtime(lock) < 5_000;
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    return err.code === 'EPERM';
  }
  return true;
}

function acquire() {
  const deadline = Date.now() + LOCK_WAIT_MS;
  let told = false;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      return;
    } catch {
      if (!holderAlive()) {
        console.warn(`ensure-build: taking over ${lock} left by a stopped build`);
        rmSync(lock, { recursive: true, force: true });
      } else if (Date.now() > deadline) {
        throw new Error(`ensure-build: ${lock} held for over ${LOCK_WAIT_MS / 60_000} min`);
      } else {
        if (!told) console.log('ensure-build: waiting for another build of dist/ to finish');
        told = true;
        // A synchronous 200 ms pause (no process started just to sleep).
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
      }
    }
  }
}

// Ctrl-C during a build: free the lock before going (a signal skips `finally`).
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    rmSync(lock, { recursive: true, force: true });
    process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
  });
}

let status = 0;
if (force || !fresh() || !bundleFresh()) {
  acquire();
  try {
    if (!force && fresh()) {
      if (!bundleFresh()) await bundle();
    } else {
      const started = Date.now();
      if (force) cleanDist();
      const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
      const run = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
        cwd: root,
        stdio: 'inherit',
      });
      status = run.status ?? 1;
      if (run.error) console.warn(`ensure-build: could not run tsc: ${run.error.message}`);
      else if (status !== 0) console.warn(`ensure-build: tsc exited ${run.status ?? run.signal}`);
      // Only a finished tsc run counts: type errors still emit (the typecheck reports them),
      // but a killed or missing tsc leaves dist/ partial, so it is not stamped fresh.
      const finished = run.error === undefined && run.status !== null;
      // Stamped with the start: a source saved during the build is newer, so rebuilt next time.
      if (status === 0 || (!strict && finished)) {
        writeFileSync(stamp, `${new Date(started).toISOString()}\n`);
        utimesSync(stamp, started / 1000, started / 1000);
      }
      console.log(`ensure-build: dist/ rebuilt in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      if (status === 0 || (!strict && finished)) await bundle();
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
process.exitCode = strict ? status : 0;
