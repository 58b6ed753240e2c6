import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { Redis } from 'ioredis';
import { BlobMissingError, copyVerified } from './blob-copy.ts';
import { DataDigestError, type DataStore } from './fetch-data.ts';
import { type DataFile, REDIS_PREFIX } from './queue-protocol.ts';

const MIB = 1024 * 1024;

/** Options of {@link RedisBlobStore}. */
export interface BlobStoreOptions {
  /** Bytes per Redis value (default 4 MiB): one chunk is in memory at a time. */
  readonly chunkBytes?: number;
  /** Largest file the store takes (default 512 MiB); past it, {@link BlobTooLargeError}. */
  readonly maxBytes?: number;
}

/** A data file too large for the blob store in Redis; a shared `--data-dir` has no limit. */
export class BlobTooLargeError extends Error {
  override name = 'BlobTooLargeError';
  readonly path: string;
  readonly size: number;
  readonly limit: number;

  constructor(path: string, size: number, limit: number) {
    const mib = (n: number): string => `${(n / MIB).toFixed(1)} MiB`;
    super(
      `${path} is ${mib(size)} (${size} bytes), past the queue's blob store limit of ${mib(limit)}: ` +
        'share the recording through a folder every machine mounts instead (--data-dir DIR on the submitter and the workers)',
    );
    this.path = path;
    this.size = size;
    this.limit = limit;
  }
}

/** How often the store was used, from `tiqs:blob:stats` (for tests and the progress line). */
export interface BlobStats {
  readonly uploads: number;
  readonly uploadBytes: number;
  readonly downloads: number;
  readonly downloadBytes: number;
}

const STATS = `${REDIS_PREFIX}:blob:stats`;
const meta = (sha: string): string => `${REDIS_PREFIX}:blob:${sha}:meta`;
const chunk = (sha: string, i: number): string => `${REDIS_PREFIX}:blob:${sha}:${i}`;

/**
 * Data files by sha256 in the queue's own Redis, so a worker needs nothing but the queue
 * URL: `tiqs:blob:<sha>:meta` (hash: size, chunks, complete) and `tiqs:blob:<sha>:<i>`
 * (chunks). A file is published once: `put` skips a complete blob, and writes the chunks
 * before marking it complete, so an upload cut short is simply done again. Files are
 * streamed both ways, one chunk in memory; `get` verifies the sha256.
 */
export class RedisBlobStore implements DataStore {
  readonly #redis: Redis;
  readonly #chunkBytes: number;
  readonly #maxBytes: number;

  constructor(redis: Redis, options: BlobStoreOptions = {}) {
    this.#redis = redis;
    this.#chunkBytes = options.chunkBytes ?? 4 * MIB;
    this.#maxBytes = options.maxBytes ?? 512 * MIB;
  }

  async has(sha256: string): Promise<boolean> {
    return (await this.#redis.hget(meta(sha256), 'complete')) === '1';
  }

  async put(path: string, file: DataFile): Promise<'uploaded' | 'reused'> {
    if (file.size > this.#maxBytes) throw new BlobTooLargeError(path, file.size, this.#maxBytes);
    if (await this.has(file.sha256)) return 'reused';
    const hash = createHash('sha256');
    let size = 0;
    let chunks = 0;
    const input = await open(path, 'r');
    try {
      for (;;) {
        // A fresh buffer per chunk: ioredis may still hold the last one while sending.
        const buffer = Buffer.allocUnsafe(this.#chunkBytes);
        const { bytesRead } = await input.read(buffer, 0, this.#chunkBytes, size);
        if (bytesRead === 0) break;
        size += bytesRead;
        if (size > this.#maxBytes) throw new BlobTooLargeError(path, size, this.#maxBytes);
        const bytes = buffer.subarray(0, bytesRead);
        hash.update(bytes);
        await this.#redis.set(chunk(file.sha256, chunks), bytes);
        chunks += 1;
      }
    } finally {
      await input.close();
    }
    const actual = hash.digest('hex');
    if (actual !== file.sha256) {
      // The file changed since its manifest was taken: publish nothing under the old digest.
      const keys = Array.from({ length: chunks }, (_, i) => chunk(file.sha256, i));
      if (keys.length > 0) await this.#redis.del(...keys);
      throw new DataDigestError(path, file.sha256, actual);
    }
    await this.#redis.hset(meta(file.sha256), { size, chunks });
    // Two submitters may upload one file at once: only the first to complete it counts.
    const first = await this.#redis.hsetnx(meta(file.sha256), 'complete', '1');
    if (first === 1)
      await this.#redis
        .multi()
        .hincrby(STATS, 'uploads', 1)
        .hincrby(STATS, 'uploadBytes', size)
        .exec();
    return 'uploaded';
  }

  async get(sha256: string, toPath: string): Promise<void> {
    const [size, count, complete] = await this.#redis.hmget(
      meta(sha256),
      'size',
      'chunks',
      'complete',
    );
    if (complete !== '1') throw new BlobMissingError(sha256, 'the queue\u2019s blob store');
    const redis = this.#redis;
    async function* chunks(): AsyncGenerator<Buffer> {
      for (let i = 0; i < Number(count); i += 1) {
        const bytes = await redis.getBuffer(chunk(sha256, i));
        if (bytes === null)
          throw new BlobMissingError(sha256, 'the queue\u2019s blob store (a chunk is gone)');
        yield bytes;
      }
    }
    await copyVerified(chunks(), toPath, sha256, `data file ${sha256} from the blob store`);
    await this.#redis
      .multi()
      .hincrby(STATS, 'downloads', 1)
      .hincrby(STATS, 'downloadBytes', Number(size))
      .exec();
  }

  /** The store's use counters since the Redis database was created. */
  async stats(): Promise<BlobStats> {
    const h = await this.#redis.hgetall(STATS);
    return {
      uploads: Number(h.uploads ?? 0),
      uploadBytes: Number(h.uploadBytes ?? 0),
      downloads: Number(h.downloads ?? 0),
      downloadBytes: Number(h.downloadBytes ?? 0),
    };
  }
}
