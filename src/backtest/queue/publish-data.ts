import { join } from 'node:path';
import { dataManifest } from './data-manifest.ts';
import type { DigestCache } from './digest-cache.ts';
import type { DataStore } from './fetch-data.ts';
import type { DataFile } from './queue-protocol.ts';

/** What publishing a recording did: its files, and how many were sent or already there. */
export interface PublishedData {
  readonly files: DataFile[];
  readonly uploaded: number;
  readonly reused: number;
}

/**
 * The submitter side of data by digest: lists the recording folder (sha256 of each file)
 * and stores each file not yet in `store`, one at a time (streamed). A second sweep over
 * the same data sends nothing. Throws the store's errors (e.g. a file too large for Redis).
 * With `cache`, files hashed before and unchanged since are not read again.
 */
export async function publishData(
  dataFolder: string,
  store: DataStore,
  cache?: DigestCache,
): Promise<PublishedData> {
  const files = await dataManifest(dataFolder, cache);
  await cache?.save();
  let uploaded = 0;
  let reused = 0;
  for (const file of files) {
    const outcome = await store.put(join(dataFolder, ...file.path.split('/')), file);
    if (outcome === 'uploaded') uploaded += 1;
    else reused += 1;
  }
  return { files, uploaded, reused };
}
