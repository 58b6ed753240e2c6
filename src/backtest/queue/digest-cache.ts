import { createHash, randomBytes } from 'node:crypto';
import { type BigIntStats, createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';

/**
 * A file's identity as the kernel keeps it: device, inode, size, and the modification and
 * change times in nanoseconds. The change time (ctime) cannot be set back by `touch` or
 * `utimes`: any write, rename over or chmod moves it, so equal identities mean equal bytes.
 */
type Identity = string;

/** One remembered digest. */
interface Entry {
  readonly id: Identity;
  readonly sha256: string;
  /** When it was taken (ms since the epoch): the oldest entries go first past the cap. */
  readonly at: number;
}

/** On-disk format, versioned so a change of layout starts afresh instead of misreading. */
interface CacheFile {
  readonly v: 1;
  readonly files: Record<string, Entry>;
}

/**
 * A file changed this close (ns) before its hashing began is not remembered: a second
 * write in the same timestamp tick would leave its identity unchanged ("racy git"). Any
 * later write moves ctime past the hashing's start, so a remembered entry can't go stale.
 */
const RACY_NS = 2_000_000_000n;
/** Entries kept at most (oldest dropped first): a sweep's data is tens of files. */
const MAX_ENTRIES = 20_000;
const SHA256 = /^[0-9a-f]{64}$/;

function identityOf(info: BigIntStats): Identity {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

/** Lower-case hex sha256 of a file, read as a stream (recordings can be large). */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/**
 * Remembers the sha256 of files by their identity, so a sweep submitted again on the same
 * recording and code does not read and hash them again (about 0.35 s for 30 days of
 * quotes). Kept in `<root>/var/cache/file-digests.json`; a cache that is missing,
 * unreadable or of another format is an empty one, and one that cannot be written (a
 * read-only install) only costs the hashing next time.
 *
 * @example
 * ```ts
 * const cache = DigestCache.for(projectDir);
 * const sha = await cache.sha256(file); // hashed once, then by identity
 * await cache.save();
 * ```
 */
export class DigestCache {
  static readonly #open = new Map<string, DigestCache>();
  readonly #file: string;
  #entries: Map<string, Entry> | undefined;
  #loading: Promise<Map<string, Entry>> | undefined;
  #dirty = false;

  /** A cache of the project at `root` of its own (tests; else {@link DigestCache.for}). */
  constructor(root: string) {
    this.#file = join(resolve(root), 'var', 'cache', 'file-digests.json');
  }

  /** The cache of the project (or install) at `root`, one per process. */
  static for(root: string): DigestCache {
    const key = resolve(root);
    let cache = DigestCache.#open.get(key);
    if (cache === undefined) {
      cache = new DigestCache(key);
      DigestCache.#open.set(key, cache);
    }
    return cache;
  }

  /** Where it is kept. */
  get file(): string {
    return this.#file;
  }

  /** The sha256 of `path`: remembered when its identity is unchanged, else read and hashed. */
  async sha256(path: string): Promise<string> {
    const full = resolve(path);
    const entries = await this.#load();
    const before = await stat(full, { bigint: true });
    const known = entries.get(full);
    if (known !== undefined && known.id === identityOf(before)) return known.sha256;
    const startedNs = BigInt(Date.now()) * 1_000_000n;
    const sha256 = await sha256OfFile(full);
    // Remembered only when nothing changed it while it was read, nor just before.
    const after = await stat(full, { bigint: true });
    const id = identityOf(after);
    if (id === identityOf(before) && after.ctimeNs < startedNs - RACY_NS) {
      entries.set(full, { id, sha256, at: Date.now() });
      this.#dirty = true;
    } else if (entries.delete(full)) this.#dirty = true;
    return sha256;
  }

  /**
   * Writes what was learnt (atomically: a temporary file renamed over the cache), merged
   * with what other processes wrote meanwhile. Never throws: the cache only saves time.
   */
  async save(): Promise<void> {
    if (!this.#dirty || this.#entries === undefined) return;
    const merged = await readEntries(this.#file);
    for (const [path, entry] of this.#entries) {
      const other = merged.get(path);
      if (other === undefined || other.at <= entry.at) merged.set(path, entry);
    }
    const kept = [...merged].sort((a, b) => b[1].at - a[1].at).slice(0, MAX_ENTRIES);
    const body: CacheFile = { v: 1, files: Object.fromEntries(kept) };
    // Its own name: two saves of one process may overlap (publish and code version).
    const temp = `${this.#file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
    try {
      await mkdir(dirname(this.#file), { recursive: true });
      await writeFile(temp, JSON.stringify(body));
      await rename(temp, this.#file);
      this.#dirty = false;
    } catch {
      await rm(temp, { force: true }).catch(() => undefined);
    }
  }

  #load(): Promise<Map<string, Entry>> {
    this.#loading ??= readEntries(this.#file).then((entries) => {
      this.#entries = entries;
      return entries;
    });
    return this.#loading;
  }
}

/** The cache file's entries; none when it is missing, unreadable or of another format. */
async function readEntries(file: string): Promise<Map<string, Entry>> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<CacheFile>;
    if (parsed.v !== 1 || typeof parsed.files !== 'object' || parsed.files === null)
      return new Map();
    const entries = new Map<string, Entry>();
    for (const [path, e] of Object.entries(parsed.files)) {
      if (typeof e?.id === 'string' && SHA256.test(String(e.sha256)) && typeof e.at === 'number')
        entries.set(path, e);
    }
    return entries;
  } catch {
    return new Map();
  }
}
