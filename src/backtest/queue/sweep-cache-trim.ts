import { randomBytes } from 'node:crypto';
import {
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { processAlive } from '../../execution/process-alive.ts';
import { processIdentity, runningProcess } from '../../execution/process-identity.ts';
import { withCacheLock } from './cache-lock.ts';

/**
 * The worker's data cache (`fetch-data.ts`: `blobs/<sha256>`, read-only, and
 * `trees/<digest>/`, recordings rebuilt from them by hard links) grows with every new
 * recording a sweep brings. A worker left running for weeks must not fill its disk: past a
 * budget, the trees used longest ago go, then the blobs no tree links any more. What a job
 * of any worker process sharing the folder uses now is pinned and never removed.
 */

/** A job's hold on its data: released when the job ends. */
export interface CachePin {
  release(): Promise<void>;
}

/**
 * A tree used this recently (ms) is never removed: a job that has just found its tree, and
 * is about to pin it, keeps it.
 */
const RECENT_MS = 10 * 60_000;

/** What a trim did. */
export interface CacheTrim {
  /** Bytes the cache holds after the trim (each file counted once, hard links or not). */
  readonly usedBytes: number;
  readonly freedBytes: number;
  readonly removedTrees: number;
  readonly removedBlobs: number;
}

interface PinFile {
  readonly tree: string;
  readonly blobs: readonly string[];
  /**
   * The pinning process ({@link processIdentity}: pid, boot id, start time), so a pin
   * whose pid was reused after a reboot is stale, not a living job's. Absent in pins
   * written before it was added: then the pid alone decides.
   */
  readonly owner?: string;
}

/**
 * Pins a job's tree (by its digest) and blobs in `cacheDir` for as long as the job runs,
 * with a file `pins/<pid>-<random>.json` naming them; marks the tree as used now (its
 * folder's mtime, the trim's measure of age). A pin of a process that died, or whose pid
 * another process now has, is stale and cleared by the next trim.
 */
export async function pinCacheData(
  cacheDir: string,
  tree: string,
  blobs: readonly string[],
): Promise<CachePin> {
  const pins = join(cacheDir, 'pins');
  await mkdir(pins, { recursive: true });
  const base = join(pins, `${process.pid}-${randomBytes(4).toString('hex')}`);
  const file = `${base}.json`;
  const pin: PinFile = { tree, blobs, owner: processIdentity(process.pid) };
  // Under the cache's lock: a trim sees the pin before it looks at this tree, or has
  // already renamed the tree out (the job's fetch then builds it again).
  await withCacheLock(cacheDir, () => {
    // Written whole, then renamed in: a trim never reads a pin half written (a full disk).
    writeFileSync(`${base}.tmp`, JSON.stringify(pin));
    renameSync(`${base}.tmp`, file);
    const now = new Date();
    try {
      utimesSync(join(cacheDir, 'trees', tree), now, now);
    } catch {
      // Not built yet: the job's fetch builds it.
    }
  });
  return { release: () => rm(file, { force: true }) };
}

/**
 * The trees and blobs pinned by living processes; stale pins are removed. Synchronous:
 * read under the cache's lock together with what it decides.
 */
function pinned(cacheDir: string): { trees: Set<string>; blobs: Set<string> } {
  const trees = new Set<string>();
  const blobs = new Set<string>();
  const dir = join(cacheDir, 'pins');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    names = [];
  }
  for (const name of names) {
    const pid = Number(name.split('-')[0]);
    const file = join(dir, name);
    // The pid is on this machine: the cache is local.
    if (!Number.isInteger(pid) || !processAlive(pid)) {
      rmSync(file, { force: true });
      continue;
    }
    // A pin being written (`.tmp`) is renamed in before its job looks at its tree.
    if (!name.endsWith('.json')) continue;
    let pin: PinFile;
    try {
      pin = JSON.parse(readFileSync(file, 'utf8')) as PinFile;
    } catch {
      // Renamed in whole, so unreadable means damaged: its tree and files may be in use,
      // and which is unknown; nothing is removed this time, and the pin stays its job's.
      return { trees: new Set(['*']), blobs: new Set(['*']) };
    }
    // Its pid now another process's (a reboot, a container restart): stale too.
    if (pin.owner !== undefined && runningProcess(pin.owner) === undefined) {
      rmSync(file, { force: true });
      continue;
    }
    trees.add(pin.tree);
    for (const b of pin.blobs) blobs.add(b);
  }
  return { trees, blobs };
}

interface FileInfo {
  readonly path: string;
  readonly inode: string;
  readonly size: number;
  readonly links: number;
  readonly mtimeMs: number;
}

async function filesUnder(dir: string): Promise<FileInfo[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const files: FileInfo[] = [];
  for (const e of entries) {
    if (!e.isFile()) continue;
    const path = join(e.parentPath, e.name);
    const info = await stat(path).catch(() => undefined);
    if (info === undefined) continue;
    files.push({
      path,
      inode: `${info.dev}:${info.ino}`,
      size: info.size,
      links: info.nlink,
      mtimeMs: info.mtimeMs,
    });
  }
  return files;
}

/** Bytes held under the cache: every inode once (a tree's hard links cost nothing). */
async function usage(cacheDir: string): Promise<number> {
  const seen = new Map<string, number>();
  for (const dir of ['blobs', 'trees'])
    for (const f of await filesUnder(join(cacheDir, dir))) seen.set(f.inode, f.size);
  let total = 0;
  for (const size of seen.values()) total += size;
  return total;
}

/**
 * Trims `cacheDir` to `maxBytes`: removes the least recently used unpinned trees, each
 * followed by the unpinned blobs no tree links any more (a link count of 1), until the
 * cache fits; blobs no tree links go first. Pinned data, and trees used in the last 10
 * minutes, stay even past the budget.
 */
export async function trimSweepCache(
  cacheDir: string,
  maxBytes: number,
  now: number = Date.now(),
): Promise<CacheTrim> {
  const before = await usage(cacheDir);
  let used = before;
  let removedTrees = 0;
  let removedBlobs = 0;
  if (used <= maxBytes) return { usedBytes: used, freedBytes: 0, removedTrees, removedBlobs };
  const pins = await withCacheLock(cacheDir, () => pinned(cacheDir));
  if (pins.trees.has('*')) return { usedBytes: used, freedBytes: 0, removedTrees, removedBlobs };
  // What a trim cut short (a kill) left renamed out: no job can use it any more.
  const treesDir = join(cacheDir, 'trees');
  for (const left of await readdir(treesDir).catch(() => [] as string[]))
    if (left.includes('.trash-')) await rm(join(treesDir, left), { recursive: true, force: true });
  const blobsDir = join(cacheDir, 'blobs');
  const dropLooseBlobs = async (): Promise<void> => {
    const loose = (await filesUnder(blobsDir))
      .filter((b) => {
        const name = b.path.slice(blobsDir.length + 1);
        // A download under way (`<sha>.<pid>-<rand>.part`) is its job's, unless abandoned.
        if (name.includes('.') && b.mtimeMs >= now - RECENT_MS) return false;
        return b.links === 1 && !pins.blobs.has(name);
      })
      .sort((a, b) => a.mtimeMs - b.mtimeMs);
    if (loose.length === 0 || used <= maxBytes) return;
    // Looked at again under the lock: a job may have pinned or linked one meanwhile.
    await withCacheLock(cacheDir, () => {
      const pinsNow = pinned(cacheDir);
      if (pinsNow.blobs.has('*')) return;
      for (const blob of loose) {
        if (used <= maxBytes) return;
        if (pinsNow.blobs.has(blob.path.slice(blobsDir.length + 1))) continue;
        if (statSync(blob.path, { throwIfNoEntry: false })?.nlink !== 1) continue;
        rmSync(blob.path, { force: true });
        used -= blob.size;
        removedBlobs += 1;
      }
    });
  };
  await dropLooseBlobs();
  const trees = await readdir(treesDir, { withFileTypes: true }).catch(() => []);
  const aged = await Promise.all(
    trees
      .filter((t) => t.isDirectory() && !t.name.includes('.') && !pins.trees.has(t.name))
      .map(async (t) => ({
        name: t.name,
        usedAt: (await stat(join(treesDir, t.name))).mtimeMs,
      })),
  );
  const old = aged.filter((t) => t.usedAt < now - RECENT_MS);
  for (const tree of old.sort((a, b) => a.usedAt - b.usedAt)) {
    if (used <= maxBytes) break;
    // Looked at again right before it goes, and renamed out in the same hold of the
    // cache's lock: a job pins or uses it before this look, or finds it gone after.
    const path = join(treesDir, tree.name);
    // Renamed out first: a tree is whole or gone, never half removed (a trim cut short
    // would otherwise leave a folder later jobs take for the whole recording).
    const trash = join(
      treesDir,
      `${tree.name}.trash-${process.pid}-${randomBytes(4).toString('hex')}`,
    );
    const out = await withCacheLock(cacheDir, () => {
      const usedAt = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
      if (usedAt === undefined || usedAt >= now - RECENT_MS) return false;
      const pinsNow = pinned(cacheDir);
      if (pinsNow.trees.has(tree.name) || pinsNow.trees.has('*')) return false;
      try {
        renameSync(path, trash);
        return true;
      } catch {
        return false;
      }
    });
    if (!out) continue;
    await rm(trash, { recursive: true, force: true });
    removedTrees += 1;
    used = await usage(cacheDir);
    await dropLooseBlobs();
  }
  used = await usage(cacheDir);
  return { usedBytes: used, freedBytes: before - used, removedTrees, removedBlobs };
}
