import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { BlobMissingError } from '../../../src/backtest/queue/blob-copy.ts';
import { BlobTooLargeError, RedisBlobStore } from '../../../src/backtest/queue/blob-store.ts';
import { DataDigestError } from '../../../src/backtest/queue/fetch-data.ts';
import type { DataFile } from '../../../src/backtest/queue/queue-protocol.ts';
import { describeWithRedis, type RedisServer, startRedis } from '../../helpers/redis-server.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const temp = tempDirs();

const sha = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** A file of `size` random bytes and its DataFile. */
function fileOf(
  dir: string,
  name: string,
  size: number,
): { path: string; file: DataFile; bytes: Buffer } {
  const bytes = randomBytes(size);
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return { path, bytes, file: { path: name, size, sha256: sha(bytes) } };
}

describeWithRedis('RedisBlobStore', () => {
  let server: RedisServer;
  let redis: Redis;
  let dir: string;
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
    dir = temp('q1-blob-');
  });

  it('stores a file in chunks once, and gives it back verified', async () => {
    const store = new RedisBlobStore(redis, { chunkBytes: 1000 });
    const { path, file, bytes } = fileOf(dir, 'quotes.bin', 2500);
    expect(await store.has(file.sha256)).toBe(false);
    expect(await store.put(path, file)).toBe('uploaded');
    expect(await store.has(file.sha256)).toBe(true);
    expect(await redis.hgetall(`tiqs:blob:${file.sha256}:meta`)).toEqual({
      size: '2500',
      chunks: '3',
      complete: '1',
    });
    // Chunked: no value holds more than a chunk.
    for (const [i, len] of [1000, 1000, 500].entries())
      expect(await redis.strlen(`tiqs:blob:${file.sha256}:${i}`)).toBe(len);

    expect(await store.put(path, file)).toBe('reused');
    const out = join(dir, 'back.bin');
    await store.get(file.sha256, out);
    expect(readFileSync(out).equals(bytes)).toBe(true);
    expect(await store.stats()).toEqual({
      uploads: 1,
      uploadBytes: 2500,
      downloads: 1,
      downloadBytes: 2500,
    });
  });

  it('stores an empty file', async () => {
    const store = new RedisBlobStore(redis);
    const { path, file } = fileOf(dir, 'empty', 0);
    expect(await store.put(path, file)).toBe('uploaded');
    await store.get(file.sha256, join(dir, 'back'));
    expect(readFileSync(join(dir, 'back')).length).toBe(0);
  });

  it('refuses a file past the limit, naming it, its size, the limit and --data-dir', async () => {
    const store = new RedisBlobStore(redis, { maxBytes: 100 });
    const { path, file } = fileOf(dir, 'big.bin', 300);
    const err = await store.put(path, file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlobTooLargeError);
    const message = (err as Error).message;
    expect(message).toContain(path);
    expect(message).toContain('300 bytes');
    expect(message).toMatch(/limit of 0\.0 MiB/);
    expect(message).toContain('--data-dir');
    expect(await redis.keys('tiqs:blob:*')).toEqual([]);
  });

  it('refuses a file that grew past the limit after its manifest was taken', async () => {
    const store = new RedisBlobStore(redis, { maxBytes: 100, chunkBytes: 64 });
    const { path, file } = fileOf(dir, 'grown.bin', 300);
    await expect(store.put(path, { ...file, size: 50 })).rejects.toThrow(BlobTooLargeError);
    expect(await store.has(file.sha256)).toBe(false);
  });

  it('publishes nothing under a digest the file no longer has', async () => {
    const store = new RedisBlobStore(redis, { chunkBytes: 64 });
    const { path, file } = fileOf(dir, 'changed.bin', 200);
    const stale = { ...file, sha256: 'f'.repeat(64) };
    await expect(store.put(path, stale)).rejects.toThrow(DataDigestError);
    expect(await redis.keys('tiqs:blob:*')).toEqual([]);
  });

  it('redoes an upload cut short (chunks written, never marked complete)', async () => {
    const store = new RedisBlobStore(redis, { chunkBytes: 100 });
    const { path, file } = fileOf(dir, 'cut.bin', 250);
    await redis.set(`tiqs:blob:${file.sha256}:0`, 'partial');
    await redis.hset(`tiqs:blob:${file.sha256}:meta`, { size: 250, chunks: 3 });
    expect(await store.has(file.sha256)).toBe(false);
    await expect(store.get(file.sha256, join(dir, 'x'))).rejects.toThrow(BlobMissingError);
    expect(await store.put(path, file)).toBe('uploaded');
    await store.get(file.sha256, join(dir, 'x'));
    expect(sha(readFileSync(join(dir, 'x')))).toBe(file.sha256);
  });

  it('never writes a corrupted blob out, and leaves no temp file', async () => {
    const store = new RedisBlobStore(redis, { chunkBytes: 100 });
    const { path, file, bytes } = fileOf(dir, 'q.bin', 250);
    await store.put(path, file);
    // Flip the byte (chunk 1, offset 10): writing a fixed 'X' left the blob intact
    // whenever the random byte there was already 'X' (one run in 256 passed it through).
    const flipped = Buffer.from([bytes.readUInt8(110) ^ 0xff]);
    await redis.setrange(`tiqs:blob:${file.sha256}:1`, 10, flipped);
    const out = join(dir, 'out', 'q.bin');
    mkdirSync(join(dir, 'out'));
    await expect(store.get(file.sha256, out)).rejects.toThrow(DataDigestError);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(join(dir, 'out'))).toEqual([]);
    expect((await store.stats()).downloads).toBe(0);
  });

  it('says a missing blob is missing', async () => {
    const store = new RedisBlobStore(redis);
    await expect(store.get('a'.repeat(64), join(dir, 'x'))).rejects.toThrow(BlobMissingError);
  });
});
