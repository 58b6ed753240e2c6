// The bundle's versioned folders (review 13 M3). Each build of the CLI's bundle goes to a
// folder of its own, dist/bundle-<build id>/, never written again once built; the file
// dist/bundle-current names the one bin/tiqs-runner.js starts (its mtime is the build's
// stamp). A process keeps loading from the folder it started in: its lazy chunks, the
// fixed-name entries (sweep-worker.js for each new sweep thread, vendor-*.js) and the
// strategy compiler all stay that build's, whatever is rebuilt meanwhile.
//
// A folder is removed only once it has not been current for RETIRED_MS (marked by a
// `.retired` file written when a later build replaced it: stale from then, not from when
// its files were written) AND no live process holds it: bin/tiqs-runner.js writes
// `<folder>/.holders/<pid>` at start and removes it at exit (a killed process's file
// stays; its pid is checked for life). So a process started from a build keeps it for as
// long as it runs (a backtest of hours, a worker of days); the grace covers a process
// between reading the pointer and writing its holder file, and one that loads a bundle
// without bin/ (none in this repository). The flat dist/bundle/ of earlier versions,
// whose processes hold nothing, is kept a day. A build is about 12 MB; a busy checkout
// (tests rebuilding after each source edit) builds dozens an hour.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

/** The pointer file in dist/: the current folder's name; its mtime is the build's stamp. */
export const POINTER = 'bundle-current';
/** How long a replaced build nobody holds is kept at least. */
export const RETIRED_MS = 10 * 60_000;
/** The same for the flat folder of earlier versions, whose processes write no holder file. */
export const LEGACY_RETIRED_MS = 24 * 60 * 60_000;
/** A bundle folder's name: `bundle-<id>`, or `bundle` (the flat folder of earlier builds). */
const FOLDER = /^bundle(?:-[0-9a-z]+(?:-[0-9]+)?)?$/;

/** A new build's folder name: time and pid, so two builds never share one. */
export function newFolderName(now = Date.now(), pid = process.pid) {
  return `bundle-${now.toString(36)}-${pid}`;
}

/** The current build's folder name, or undefined (none built, or the pointer unreadable). */
export function currentFolder(dist) {
  try {
    const name = readFileSync(join(dist, POINTER), 'utf8').trim();
    return FOLDER.test(name) && name !== 'bundle' ? name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Makes `name` current: the pointer written beside and renamed over the old one (a reader
 * sees the old name or the new, never a part), its mtime set to `stamp` first.
 */
export function publish(dist, name, stamp) {
  const temp = join(dist, `.${POINTER}.${process.pid}`);
  writeFileSync(temp, `${name}\n`);
  utimesSync(temp, stamp / 1000, stamp / 1000);
  renameSync(temp, join(dist, POINTER));
}

/** Whether process `pid` runs (one we may not signal does). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** The live processes holding `folder` (started from it by bin/tiqs-runner.js). */
export function liveHolders(folder) {
  let names = [];
  try {
    names = readdirSync(join(folder, '.holders'));
  } catch {
    return [];
  }
  return names.map(Number).filter((pid) => Number.isInteger(pid) && pid > 0 && alive(pid));
}

/**
 * Marks every bundle folder other than `current` retired (from now, the first time it is
 * found so), and removes those retired for over {@link RETIRED_MS} that no live process
 * holds. Returns the names removed.
 */
export function retireOld(dist, current, now = Date.now()) {
  const removed = [];
  for (const name of readdirSync(dist)) {
    if (name === current || !FOLDER.test(name)) continue;
    const folder = join(dist, name);
    if (!statSync(folder).isDirectory()) continue;
    const marker = join(folder, '.retired');
    if (!existsSync(marker)) {
      // Stale from now: it was current (or being built) until this build replaced it.
      writeFileSync(marker, `${new Date(now).toISOString()}\n`);
      utimesSync(marker, now / 1000, now / 1000);
      continue;
    }
    const grace = name === 'bundle' ? LEGACY_RETIRED_MS : RETIRED_MS;
    if (now - statSync(marker).mtimeMs <= grace) continue;
    if (liveHolders(folder).length > 0) continue;
    rmSync(folder, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

/** Creates the folder a new build writes to (empty, its own). */
export function makeFolder(dist, name) {
  mkdirSync(join(dist, name), { recursive: false });
  return join(dist, name);
}
