import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { processIdentity, runningProcess } from './process-identity.ts';
import { beginExclusive, endExclusive } from './sqlite-exclusive.ts';

/** Another live process has the journal open for writing (two bots on one state dir). */
export class JournalLockedError extends Error {
  override readonly name = 'JournalLockedError';

  constructor(
    readonly path: string,
    readonly pid: number,
  ) {
    super(
      `journal ${path} is in use by process ${pid} (another bot on the same state dir?); stop it first, or delete ${path}.lock if no such process is a bot`,
    );
  }
}

/** The longest an acquire or a release waits for another process's, ms. */
const GUARD_WAIT_MS = 10_000;

/**
 * Whether the lock's writer still runs (see {@link runningProcess}: after a crash and a
 * reboot, or a container restart, its pid may belong to another process, which must not
 * keep the journal locked). This process's own lock (a journal reopened in it) is not.
 */
function writerAlive(text: string): number | undefined {
  const pid = runningProcess(text);
  return pid === process.pid ? undefined : pid;
}

/**
 * A journal's writer lock: the file `<journal>.lock`, created exclusively and holding
 * the writer's pid (with, on Linux, the boot id and the process's start time). Two processes writing one journal would truncate each other's
 * pre-send rows and share tag sequences; the second is refused with
 * {@link JournalLockedError}. A lock whose process is gone (killed: the restart this
 * journal exists for; or its pid now another process's, after a reboot) or is this
 * process (a journal reopened in it) is taken over.
 */
export class JournalLock {
  private held = false;

  constructor(readonly journalPath: string) {}

  get path(): string {
    return `${this.journalPath}.lock`;
  }

  /**
   * Takes the lock, or throws {@link JournalLockedError}. The look at an existing lock,
   * its removal when stale and the new lock's creation are one step, serialised with every
   * other process's by {@link guarded}: two bots started at the same instant after a crash
   * could otherwise both find the dead bot's lock stale, and both take it over.
   */
  acquire(): void {
    this.guarded(() => this.take());
  }

  private take(): void {
    for (let attempt = 0; ; attempt += 1) {
      try {
        const fd = openSync(this.path, 'wx');
        writeSync(fd, processIdentity(process.pid));
        closeSync(fd);
        this.held = true;
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err;
      }
      const pid = writerAlive(readFileSync(this.path, 'utf8'));
      if (pid !== undefined) throw new JournalLockedError(this.journalPath, pid);
      rmSync(this.path, { force: true });
    }
  }

  /**
   * Runs `work` inside an SQLite EXCLUSIVE transaction on `<journal>.lock.sqlite`: an OS
   * file lock, which dies with its process, so a crash leaves nothing to clear. Waited
   * for up to 10 s (another process's hold lasts a few file operations). A file that is
   * not a database (a disk fault) is set aside once and made anew.
   */
  private guarded(work: () => void): void {
    const guard = beginExclusive(`${this.path}.sqlite`, GUARD_WAIT_MS);
    try {
      work();
    } finally {
      endExclusive(guard);
    }
  }

  /** Gives the lock up (at close). */
  release(): void {
    if (!this.held) return;
    this.held = false;
    // Serialised too: a bot starting meanwhile reads a whole lock or none.
    this.guarded(() => rmSync(this.path, { force: true }));
  }
}
