import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { DataFile } from './queue-protocol.ts';

/** The recording folder to publish is missing or not a folder. */
export class DataFolderError extends Error {
  override name = 'DataFolderError';
  readonly folder: string;

  constructor(folder: string, problem: string, options?: { cause?: unknown }) {
    super(`recording folder ${folder}: ${problem}`, options);
    this.folder = folder;
  }
}

/** Lower-case hex sha256 of a file, read as a stream (recordings can be large). */
async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/**
 * Every file under a recording folder (recursive, symlinks followed), as the jobs name
 * them: `/`-separated paths relative to the folder, sorted by code point, with size and
 * sha256 (streamed). Throws {@link DataFolderError} when the folder is missing.
 */
export async function dataManifest(folder: string): Promise<DataFile[]> {
  try {
    const info = await stat(folder);
    if (!info.isDirectory()) throw new DataFolderError(folder, 'not a folder');
  } catch (err) {
    if (err instanceof DataFolderError) throw err;
    throw new DataFolderError(folder, 'not found', { cause: err });
  }
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const files: DataFile[] = [];
  for (const entry of entries) {
    const full = join(entry.parentPath, entry.name);
    if (!entry.isFile() && !entry.isSymbolicLink()) continue;
    const info = await stat(full); // a symlink counts as the file it points at
    if (!info.isFile()) continue;
    const path = relative(folder, full).split(sep).join('/');
    files.push({ path, size: info.size, sha256: await sha256OfFile(full) });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
