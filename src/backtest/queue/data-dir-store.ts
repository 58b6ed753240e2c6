import { createReadStream } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { BlobMissingError, copyVerified } from './blob-copy.ts';
import type { DataStore } from './fetch-data.ts';
import type { DataFile } from './queue-protocol.ts';

/**
 * Data files by sha256 in a folder every machine mounts (`--data-dir`): `<dir>/<sha256>`.
 * Used instead of the blob store in Redis when given, for recordings past its size limit or
 * a shared disk already at hand. Both ways verify the sha256 and write through a temp file.
 */
export class DataDirStore implements DataStore {
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
  }

  async has(sha256: string): Promise<boolean> {
    try {
      await access(join(this.#dir, sha256));
      return true;
    } catch {
      return false;
    }
  }

  async put(path: string, file: DataFile): Promise<'uploaded' | 'reused'> {
    if (await this.has(file.sha256)) return 'reused';
    await mkdir(this.#dir, { recursive: true });
    await copyVerified(createReadStream(path), join(this.#dir, file.sha256), file.sha256, path);
    return 'uploaded';
  }

  async get(sha256: string, toPath: string): Promise<void> {
    if (!(await this.has(sha256)))
      throw new BlobMissingError(sha256, `the data folder ${this.#dir}`);
    const from = join(this.#dir, sha256);
    await copyVerified(createReadStream(from), toPath, sha256, `data file ${from}`);
  }
}
