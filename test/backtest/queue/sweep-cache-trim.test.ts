import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CacheLockError, withCacheLock } from '../../../src/backtest/queue/cache-lock.ts';
import { DataDirStore } from '../../../src/backtest/queue/data-dir-store.ts';
import { fetchData, treeDigest } from '../../../src/backtest/queue/fetch-data.ts';
import { publishData } from '../../../src/backtest/queue/publish-data.ts';
import type { DataFile } from '../../../src/backtest/queue/queue-protocol.ts';
import { pinCacheData, trimSweepCache } from '../../../src/backtest/queue/sweep-cache-trim.ts';
import { processIdentity } from '../../../src/execution/process-identity.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const temp = tempDirs();
const KB = 1024;
const HOUR = 3_600_000;

/** A recording of `days` files of `size` bytes each, filled with `fill`; plus a shared meta. */
function recording(fill: string, days: number, size: number): string {
  const dir = temp('trim-rec-');
  writeFileSync(join(dir, 'meta.json'), '{"shared":true}');
  for (let d = 0; d < days; d++) {
    mkdirSync(join(dir, `day-${d}`));
    writeFileSync(join(dir, `day-${d}`, 'quotes.bin'), `${fill}${d}`.repeat(size / 2));
  }
  return dir;
}

/** Fetches `rec` into the worker cache `cache` as a job would; the tree's use set `agoMs` back. */
async function cached(
  cache: string,
  shared: DataDirStore,
  rec: string,
  agoMs: number,
): Promise<{ files: DataFile[]; tree: string }> {
  const { files } = await publishData(rec, shared);
  const tree = await fetchData(files, shared, cache);
  const at = new Date(Date.now() - agoMs);
  utimesSync(tree, at, at);
  return { files, tree };
}

describe('trimSweepCache', () => {
  it('leaves a cache within its budget alone', async () => {
    const cache = temp('trim-cache-');
    const shared = new DataDirStore(temp('trim-shared-'));
    const a = await cached(cache, shared, recording('a', 2, 10 * KB), 2 * HOUR);
    const t = await trimSweepCache(cache, 1024 * KB);
    expect(t).toMatchObject({ removedTrees: 0, removedBlobs: 0, freedBytes: 0 });
    expect(t.usedBytes).toBeGreaterThan(20 * KB);
    expect(existsSync(a.tree)).toBe(true);
  });

  it('removes the recordings used longest ago, and the files only they used, until it fits', async () => {
    const cache = temp('trim-cache-');
    const shared = new DataDirStore(temp('trim-shared-'));
    const oldest = await cached(cache, shared, recording('a', 3, 10 * KB), 3 * HOUR);
    const older = await cached(cache, shared, recording('b', 3, 10 * KB), 2 * HOUR);
    const newer = await cached(cache, shared, recording('c', 3, 10 * KB), 1 * HOUR);
    // Three recordings of 30 KiB (and one meta shared by all): a budget for two.
    const t = await trimSweepCache(cache, 65 * KB);
    // Checked to fail: sorting by newest first removed `newer` instead.
    expect(existsSync(oldest.tree)).toBe(false);
    expect(existsSync(older.tree)).toBe(true);
    expect(existsSync(newer.tree)).toBe(true);
    expect(t.removedTrees).toBe(1);
    expect(t.usedBytes).toBeLessThanOrEqual(65 * KB);
    const blobs = readdirSync(join(cache, 'blobs'));
    // The oldest's day files went; the meta file the others link stays.
    for (const f of oldest.files) {
      const shared = older.files.some((o) => o.sha256 === f.sha256);
      expect(blobs.includes(f.sha256)).toBe(shared);
    }
    // What remains still reads as whole recordings.
    for (const f of older.files) expect(existsSync(join(older.tree, f.path))).toBe(true);
  });

  it('never removes a recording a living job has pinned, nor one used in the last 10 minutes', async () => {
    const cache = temp('trim-cache-');
    const shared = new DataDirStore(temp('trim-shared-'));
    const pinned = await cached(cache, shared, recording('a', 3, 10 * KB), 3 * HOUR);
    const recent = await cached(cache, shared, recording('b', 3, 10 * KB), 5 * 60_000);
    const pin = await pinCacheData(
      cache,
      treeDigest(pinned.files),
      pinned.files.map((f) => f.sha256),
    );
    // pinCacheData marks the tree used now: set back, so only the pin protects it.
    const at = new Date(Date.now() - 3 * HOUR);
    utimesSync(pinned.tree, at, at);
    const t = await trimSweepCache(cache, 1 * KB);
    // Checked to fail: without the pins (or the recency rule) both trees were removed.
    expect(existsSync(pinned.tree)).toBe(true);
    expect(existsSync(recent.tree)).toBe(true);
    expect(t.removedTrees).toBe(0);
    await pin.release();
    expect((await trimSweepCache(cache, 1 * KB)).removedTrees).toBe(1);
    expect(existsSync(pinned.tree)).toBe(false);
  });

  it("clears a dead process's pin, and protects a pinned job's files before its tree exists", async () => {
    const cache = temp('trim-cache-');
    const shared = new DataDirStore(temp('trim-shared-'));
    const old = await cached(cache, shared, recording('a', 2, 10 * KB), 3 * HOUR);
    mkdirSync(join(cache, 'pins'), { recursive: true });
    // A pid no process has (beyond pid_max): its pin is stale.
    writeFileSync(
      join(cache, 'pins', '99999999-dead.json'),
      JSON.stringify({ tree: treeDigest(old.files), blobs: old.files.map((f) => f.sha256) }),
    );
    // A job of this process fetching a recording whose tree is not built yet: loose blobs.
    const { files } = await publishData(recording('z', 1, 10 * KB), shared);
    const pin = await pinCacheData(
      cache,
      treeDigest(files),
      files.map((f) => f.sha256),
    );
    for (const f of files) await shared.get(f.sha256, join(cache, 'blobs', f.sha256));
    const t = await trimSweepCache(cache, 1 * KB);
    expect(readdirSync(join(cache, 'pins'))).toHaveLength(1);
    expect(existsSync(old.tree)).toBe(false);
    expect(t.removedTrees).toBe(1);
    for (const f of files) expect(existsSync(join(cache, 'blobs', f.sha256))).toBe(true);
    await pin.release();
  });

  it('clears a pin whose pid another process now has (a reboot, a container restart)', async () => {
    // Review (final, F4): a pin named its process by the bare pid, which a reboot can give
    // to another process; the pin then kept its data until that process ended.
    // Checked to fail: without the owner check in pinned() the tree stayed.
    const cache = temp('trim-cache-');
    const shared = new DataDirStore(temp('trim-shared-'));
    const old = await cached(cache, shared, recording('a', 2, 10 * KB), 3 * HOUR);
    mkdirSync(join(cache, 'pins'), { recursive: true });
    // This process's pid (alive) and boot, but another start time: a process before it.
    const [pid, boot] = processIdentity(process.pid).split(' ');
    const stale = `${pid} ${boot} 1`;
    writeFileSync(
      join(cache, 'pins', `${process.pid}-reused.json`),
      JSON.stringify({
        tree: treeDigest(old.files),
        blobs: old.files.map((f) => f.sha256),
        owner: stale,
      }),
    );
    const t = await trimSweepCache(cache, 1 * KB);
    expect(existsSync(old.tree)).toBe(false);
    expect(t.removedTrees).toBe(1);
    expect(readdirSync(join(cache, 'pins'))).toEqual([]);
  });

  it("keeps this process's own pin: its identity is its own", async () => {
    const cache = temp('trim-cache-');
    const shared = new DataDirStore(temp('trim-shared-'));
    const old = await cached(cache, shared, recording('a', 2, 10 * KB), 3 * HOUR);
    const pin = await pinCacheData(
      cache,
      treeDigest(old.files),
      old.files.map((f) => f.sha256),
    );
    utimesSync(old.tree, new Date(Date.now() - 3 * HOUR), new Date(Date.now() - 3 * HOUR));
    await trimSweepCache(cache, 1 * KB);
    expect(existsSync(old.tree)).toBe(true);
    await pin.release();
  });

  it('clears what a cut-short trim left, keeps a download under way, and removes a tree whole', async () => {
    // Review (final, F2/F3): a tree is renamed out before it is deleted, so a kill mid-way
    // leaves a `.trash-` folder (cleared by the next trim), never a half tree; a `.part`
    // file younger than 10 minutes is a download under way and stays.
    // Checked to fail: without the trash sweep the leftover stayed; without the `.part`
    // rule the partial download was removed.
    const cache = temp('trim-cache-');
    const shared = new DataDirStore(temp('trim-shared-'));
    const old = await cached(cache, shared, recording('a', 2, 10 * KB), 3 * HOUR);
    const leftover = join(cache, 'trees', `${'e'.repeat(64)}.trash-1-abcd`);
    mkdirSync(join(leftover, 'day-0'), { recursive: true });
    writeFileSync(join(leftover, 'day-0', 'quotes.bin'), 'x'.repeat(8 * KB));
    const part = join(cache, 'blobs', `${'d'.repeat(64)}.123-abcd.part`);
    writeFileSync(part, 'y'.repeat(8 * KB));
    const t = await trimSweepCache(cache, 1 * KB);
    expect(existsSync(leftover)).toBe(false);
    expect(existsSync(old.tree)).toBe(false);
    expect(t.removedTrees).toBe(1);
    expect(existsSync(part)).toBe(true);
    expect(readdirSync(join(cache, 'trees'))).toEqual([]);
  });
});

/**
 * Another process holding the cache's lock (`lock.sqlite`, as `withCacheLock` takes it)
 * for `holdMs`; resolves once it holds it, with the time (epoch ms) it lets go at.
 */
async function lockedElsewhere(
  cache: string,
  holdMs: number,
  children: ChildProcess[],
): Promise<number> {
  const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
  const script = `const D = require(${JSON.stringify(sqlite)});
const db = new D(process.argv[1]);
db.exec('BEGIN EXCLUSIVE');
const until = Date.now() + ${holdMs};
console.log(String(until));
setTimeout(() => { db.exec('COMMIT'); db.close(); }, until - Date.now());`;
  const child = spawn(process.execPath, ['-e', script, join(cache, 'lock.sqlite')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString())));
    child.once('exit', (code) => reject(new Error(`the lock holder exited (${code})`)));
  });
}

// Review (final, F1): a job could pin its tree in the instant between a trim's last look
// at the pins and its rename, and lose the tree. Both now run in one hold of the cache's
// lock, an SQLite EXCLUSIVE transaction shared by every worker process on the folder.
// Checked to fail: with withCacheLock running its work without the transaction, the pin
// and the trim each went through while another process held the lock (both first tests
// failed on the time); with a blocking wait (SQLite's busy timeout) the third test saw no
// tick of the event loop while waiting.
describe('the cache lock, across processes', () => {
  const HOLD_MS = 1_000;
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const c of children.splice(0)) c.kill('SIGKILL');
  });

  it("holds a job's pin while another process holds the lock", async () => {
    const cache = temp('lock-cache-');
    mkdirSync(cache, { recursive: true });
    const releasedAt = await lockedElsewhere(cache, HOLD_MS, children);
    const pin = await pinCacheData(cache, 'a'.repeat(64), []);
    // Both clocks are this machine's: the pin went in only once the other let go.
    expect(Date.now()).toBeGreaterThanOrEqual(releasedAt);
    expect(readdirSync(join(cache, 'pins'))).toHaveLength(1);
    await pin.release();
  }, 20_000);

  it("holds a trim's look and rename while another process holds the lock", async () => {
    const cache = temp('lock-cache-');
    const shared = new DataDirStore(temp('lock-shared-'));
    const old = await cached(cache, shared, recording('a', 2, 10 * KB), 3 * HOUR);
    const releasedAt = await lockedElsewhere(cache, HOLD_MS, children);
    const t = await trimSweepCache(cache, 1 * KB);
    expect(Date.now()).toBeGreaterThanOrEqual(releasedAt);
    expect(t.removedTrees).toBe(1);
    expect(existsSync(old.tree)).toBe(false);
  }, 20_000);

  it('waits without blocking the thread, then says which lock it could not have', async () => {
    const cache = temp('lock-cache-');
    mkdirSync(cache, { recursive: true });
    await lockedElsewhere(cache, 5_000, children);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    const err = await withCacheLock(cache, () => 'never', 300).catch((e: unknown) => e);
    clearInterval(ticker);
    expect(err).toBeInstanceOf(CacheLockError);
    expect((err as Error).message).toContain(join(cache, 'lock.sqlite'));
    expect((err as Error).message).toMatch(/held by another process/);
    // The worker's other jobs (their BullMQ lock renewals) ran on while it waited.
    expect(ticks).toBeGreaterThan(3);
  }, 20_000);

  it('sets a damaged lock file aside and makes a new one', async () => {
    const cache = temp('lock-cache-');
    mkdirSync(cache, { recursive: true });
    writeFileSync(join(cache, 'lock.sqlite'), 'not a database, not even close '.repeat(200));
    expect(await withCacheLock(cache, () => 'held')).toBe('held');
    expect(readdirSync(cache).some((f) => f.startsWith('lock.sqlite.damaged-'))).toBe(true);
  });
});
