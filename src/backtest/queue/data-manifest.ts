import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { byCodePoint } from './code-point-order.ts';
import type { DigestCache } from './digest-cache.ts';
import { sha256OfFile } from './digest-cache.ts';
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

/**
 * Every file under a recording folder (recursive, symlinks followed), as the jobs name
 * them: `/`-separated paths relative to the folder, sorted by code point, with size and
 * sha256 (streamed; through `cache` when given, which skips files whose identity is
 * unchanged since it hashed them). Throws {@link DataFolderError} when the folder is missing.
 */
export async function dataManifest(folder: string, cache?: DigestCache): Promise<DataFile[]> {
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
    const sha256 = await (cache === undefined ? sha256OfFile(full) : cache.sha256(full));
    files.push({ path, size: info.size, sha256 });
  }
  return files.sort((a, b) => byCodePoint(a.path, b.path));
}
