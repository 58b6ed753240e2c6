import { createHash, randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { DataDigestError } from './fetch-data.ts';

/** A blob asked for is not stored (whole): never published, or lost with Redis's data. */
export class BlobMissingError extends Error {
  override name = 'BlobMissingError';
  readonly sha256: string;

  constructor(sha256: string, where: string) {
    super(
      `data file ${sha256} is not in ${where}; publish the sweep's data again (rerun the submitter)`,
    );
    this.sha256 = sha256;
  }
}

/**
 * Writes `chunks` to `toPath` through a temp file beside it, hashing as it goes, and
 * renames it in only when the sha256 is `sha256`; else removes it and throws
 * {@link DataDigestError}. One chunk in memory at a time; a reader never sees a partial
 * or wrong file at `toPath`.
 */
export async function copyVerified(
  chunks: AsyncIterable<Uint8Array>,
  toPath: string,
  sha256: string,
  what: string,
): Promise<number> {
  const part = `${toPath}.${process.pid}-${randomBytes(4).toString('hex')}.part`;
  const hash = createHash('sha256');
  let size = 0;
  const out = await open(part, 'w');
  try {
    for await (const chunk of chunks) {
      hash.update(chunk);
      size += chunk.byteLength;
      await out.write(chunk);
    }
    await out.close();
    const actual = hash.digest('hex');
    if (actual !== sha256) throw new DataDigestError(what, sha256, actual);
    await rename(part, toPath);
    return size;
  } catch (err) {
    await out.close().catch(() => undefined);
    await rm(part, { force: true });
    throw err;
  }
}
