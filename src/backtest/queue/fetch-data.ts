import { createHash, randomBytes } from 'node:crypto';
import { chmod, copyFile, link, mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { byCodePoint } from './code-point-order.ts';
import type { DataFile } from './queue-protocol.ts';

/**
 * Where a sweep's data files are kept by content digest: the blob store in the queue's
 * Redis ({@link RedisBlobStore}) or a shared folder ({@link DataDirStore}).
 */
export interface DataStore {
  /** Whether the file with this sha256 is stored whole. */
  has(sha256: string): Promise<boolean>;
  /** Stores the file at `path` (described by `file`) unless it is there already. */
  put(path: string, file: DataFile): Promise<'uploaded' | 'reused'>;
  /** Writes the stored file to `toPath`, verified against its sha256 (else {@link DataDigestError}). */
  get(sha256: string, toPath: string): Promise<void>;
}

/** A data file's bytes do not match the sha256 it was published under: it is never used. */
export class DataDigestError extends Error {
  override name = 'DataDigestError';
  readonly expected: string;
  readonly actual: string;

  constructor(what: string, expected: string, actual: string) {
    super(`${what}: sha256 ${actual} does not match the published ${expected}`);
    this.expected = expected;
    this.actual = actual;
  }
}

/** A job names a data file outside its recording folder (`..`, absolute): refused. */
export class DataPathError extends Error {
  override name = 'DataPathError';

  constructor(path: string) {
    super(`data file path ${JSON.stringify(path)} is not a plain relative path`);
  }
}

/** Downloads under way in this process, by target: two jobs wanting one file share one. */
const inFlight = new Map<string, Promise<void>>();

function once(key: string, work: () => Promise<void>): Promise<void> {
  const running = inFlight.get(key);
  if (running !== undefined) return running;
  const started = work().finally(() => inFlight.delete(key));
  inFlight.set(key, started);
  return started;
}

async function sizeOf(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).size;
  } catch {
    return undefined;
  }
}

function checkPath(path: string): void {
  const parts = path.split('/');
  if (
    path.startsWith('/') ||
    path.includes('\\') ||
    parts.some((p) => p === '' || p === '.' || p === '..')
  )
    throw new DataPathError(path);
}

/** A folder's digest: the sorted (path, sha256) list, so one recording is one tree. */
export function treeDigest(files: readonly DataFile[]): string {
  const list = files
    .map((f) => [f.path, f.sha256])
    .sort((a, b) => byCodePoint(String(a[0]), String(b[0])));
  return createHash('sha256').update(JSON.stringify(list)).digest('hex');
}

const temp = (path: string): string =>
  `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;

/** Puts the blob in `<cacheDir>/blobs/<sha>` unless it is there (only verified blobs are). */
async function cacheBlob(file: DataFile, store: DataStore, blobs: string): Promise<void> {
  const target = join(blobs, file.sha256);
  if ((await sizeOf(target)) === file.size) return;
  await once(target, async () => {
    if ((await sizeOf(target)) === file.size) return;
    await store.get(file.sha256, target); // verified, written to a temp file, renamed in
    // Read-only once verified: the trees hard-link it, so a write into a tree's file would
    // change the cached blob that later jobs trust by its size.
    await chmod(target, 0o444);
  });
}

/** The recording tree from cached blobs: hard links (a copy across file systems). */
async function buildTree(files: readonly DataFile[], blobs: string, tree: string): Promise<void> {
  if ((await sizeOf(tree)) !== undefined) return;
  const building = temp(tree);
  for (const file of files) {
    const target = join(building, ...file.path.split('/'));
    await mkdir(dirname(target), { recursive: true });
    const blob = join(blobs, file.sha256);
    await link(blob, target).catch(() => copyFile(blob, target));
  }
  await mkdir(building, { recursive: true }); // an empty recording is an empty folder
  try {
    await rename(building, tree);
  } catch (err) {
    // Another process built the same tree first: theirs is identical.
    await rm(building, { recursive: true, force: true });
    if ((await sizeOf(tree)) === undefined) throw err;
  }
}

/**
 * The worker side of data by digest: fetches each of a job's files from `store` into
 * `<cacheDir>/blobs/<sha256>` unless cached (verified once, then reused by every later job
 * and sweep), and returns `<cacheDir>/trees/<digest of the file list>/`, the recording
 * folder rebuilt from them. Throws {@link DataDigestError} when a file's bytes do not
 * match (nothing of it is cached) and {@link DataPathError} for a path leaving the folder.
 * Safe for concurrent jobs: each file is written to a temp file and renamed in.
 */
export async function fetchData(
  files: readonly DataFile[],
  store: DataStore,
  cacheDir: string,
): Promise<string> {
  for (const file of files) checkPath(file.path);
  const blobs = join(cacheDir, 'blobs');
  const trees = join(cacheDir, 'trees');
  await mkdir(blobs, { recursive: true });
  await mkdir(trees, { recursive: true });
  for (const file of files) await cacheBlob(file, store, blobs);
  const tree = join(trees, treeDigest(files));
  await once(tree, () => buildTree(files, blobs, tree));
  return tree;
}
