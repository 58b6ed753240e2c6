import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { RedisBlobStore } from '../../../src/backtest/queue/blob-store.ts';
import { dataManifest } from '../../../src/backtest/queue/data-manifest.ts';
import {
  DataDigestError,
  DataPathError,
  fetchData,
} from '../../../src/backtest/queue/fetch-data.ts';
import { publishData } from '../../../src/backtest/queue/publish-data.ts';
import { describeWithRedis, type RedisServer, startRedis } from '../../helpers/redis-server.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const temp = tempDirs();

/** A small recording folder: a meta file and two days. */
function recording(): string {
  const dir = temp('q1-rec-');
  mkdirSync(join(dir, 'day-1'));
  mkdirSync(join(dir, 'day-2'));
  writeFileSync(join(dir, 'meta.json'), '{"tokens":[3045]}');
  writeFileSync(join(dir, 'day-1', 'quotes.bin'), 'a'.repeat(3000));
  writeFileSync(join(dir, 'day-2', 'quotes.bin'), 'b'.repeat(1500));
  return dir;
}

describeWithRedis('publishData and fetchData over the blob store', () => {
  let server: RedisServer;
  let redis: Redis;
  let store: RedisBlobStore;
  beforeAll(async () => {
    server = await startRedis();
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    redis.disconnect();
    await server.stop();
  });
  beforeEach(async () => {
    await redis.flushdb();
    store = new RedisBlobStore(redis, { chunkBytes: 1024 });
  });

  it('publishes each file once; a second sweep sends nothing', async () => {
    const data = recording();
    const first = await publishData(data, store);
    expect(first.files.map((f) => f.path)).toEqual([
      'day-1/quotes.bin',
      'day-2/quotes.bin',
      'meta.json',
    ]);
    expect([first.uploaded, first.reused]).toEqual([3, 0]);
    const second = await publishData(data, store);
    expect([second.uploaded, second.reused]).toEqual([0, 3]);
    expect((await store.stats()).uploads).toBe(3);
  });

  it('rebuilds the recording tree from the cache, fetching each file once', async () => {
    const data = recording();
    const { files } = await publishData(data, store);
    const cache = temp('q1-cache-');
    const tree = await fetchData(files, store, cache);
    expect(await dataManifest(tree)).toEqual(files);
    expect(readFileSync(join(tree, 'meta.json'), 'utf8')).toBe('{"tokens":[3045]}');
    // Hard links to the cached blobs, not copies.
    expect(statSync(join(tree, 'meta.json')).nlink).toBe(2);
    expect((await store.stats()).downloads).toBe(3);
    // Verified blobs are read-only (and so their trees' links): nothing writes into them.
    for (const file of files)
      expect(statSync(join(cache, 'blobs', file.sha256)).mode & 0o777).toBe(0o444);
    expect(statSync(join(tree, 'meta.json')).mode & 0o777).toBe(0o444);

    // Later jobs and sweeps on the same data fetch nothing.
    expect(await fetchData(files, store, cache)).toBe(tree);
    expect((await store.stats()).downloads).toBe(3);
    // Another file list sharing blobs fetches nothing new either.
    const fewer = files.filter((f) => f.path !== 'meta.json');
    const other = await fetchData(fewer, store, cache);
    expect(other).not.toBe(tree);
    expect((await store.stats()).downloads).toBe(3);
  });

  it('fetches each file once when two jobs of a worker ask at the same time', async () => {
    const { files } = await publishData(recording(), store);
    const cache = temp('q1-cache-');
    const trees = await Promise.all([1, 2, 3].map(() => fetchData(files, store, cache)));
    expect(new Set(trees).size).toBe(1);
    expect(await dataManifest(trees[0] as string)).toEqual(files);
    expect((await store.stats()).downloads).toBe(3);
  });

  it('is safe with two worker processes sharing one cache folder', async () => {
    const { files } = await publishData(recording(), store);
    const cache = temp('q1-cache-');
    // Two module instances: two processes' worth of in-flight bookkeeping, one folder.
    vi.resetModules();
    const a = await import('../../../src/backtest/queue/fetch-data.ts');
    vi.resetModules();
    const b = await import('../../../src/backtest/queue/fetch-data.ts');
    expect(a.fetchData).not.toBe(b.fetchData);
    const trees = await Promise.all([
      a.fetchData(files, store, cache),
      b.fetchData(files, store, cache),
      a.fetchData(files, store, cache),
      b.fetchData(files, store, cache),
    ]);
    expect(new Set(trees).size).toBe(1);
    expect(await dataManifest(trees[0] as string)).toEqual(files);
    // Each process fetched a file at most once; nothing half-written is left behind.
    expect((await store.stats()).downloads).toBeLessThanOrEqual(6);
    expect(readdirSync(join(cache, 'trees'))).toHaveLength(1);
    expect(readdirSync(join(cache, 'blobs')).sort()).toEqual(
      [...new Set(files.map((f) => f.sha256))].sort(),
    );
  });

  it('never hands over data whose digest does not match', async () => {
    const { files } = await publishData(recording(), store);
    const meta = files.find((f) => f.path === 'meta.json');
    await redis.setrange(`tiqs:blob:${meta?.sha256}:0`, 0, 'X');
    const cache = temp('q1-cache-');
    await expect(fetchData(files, store, cache)).rejects.toThrow(DataDigestError);
    // Nothing of the bad file is cached, and no tree is built.
    const blobs = readdirSync(join(cache, 'blobs'));
    expect(blobs).not.toContain(meta?.sha256);
    expect(blobs.some((b) => b.includes('.part'))).toBe(false);
    expect(readdirSync(join(cache, 'trees'))).toEqual([]);
  });

  it('refuses paths that leave the recording folder', async () => {
    const cache = temp('q1-cache-');
    for (const path of ['../escape', '/etc/passwd', 'a//b', 'a/./b'])
      await expect(
        fetchData([{ path, size: 1, sha256: 'a'.repeat(64) }], store, cache),
      ).rejects.toThrow(DataPathError);
  });
});
