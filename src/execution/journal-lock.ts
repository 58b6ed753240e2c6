import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';

/** Another live process has the journal open for writing (two bots on one state dir). */
export class JournalLockedError extends Error {
  override readonly name = 'JournalLockedError';

  constructor(
    readonly path: string,
    readonly pid: number,
    options?: { cause?: unknown },
  ) {
    super(
      `journal ${path} is in use by process ${pid} (another bot on the same state dir?); stop it first, or delete ${path}.lock if no such process is a bot`,
      options,
    );
  }
}

/** Whether process `pid` runs (one we may not signal does). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A journal's writer lock: the file `<journal>.lock`, created exclusively and holding
 * the writer's pid. Two processes writing one journal would truncate each other's
 * pre-send rows and share tag sequences; the second is refused with
 * {@link JournalLockedError}. A lock whose process is gone (killed: the restart this
 * journal exists for) or is this process (a journal reopened in it) is taken over.
 */
export class JournalLock {
  private held = false;

  constructor(readonly journalPath: string) {}

  get path(): string {
    return `${this.journalPath}.lock`;
  }

  /** Takes the lock, or throws {@link JournalLockedError}. */
  acquire(): void {
    for (let attempt = 0; ; attempt += 1) {
      try {
        const fd = openSync(this.path, 'wx');
        writeSync(fd, String(process.pid));
        closeSync(fd);
        this.held = true;
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err;
      }
      const pid = Number(readFileSync(this.path, 'utf8'));
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid))
        throw new JournalLockedError(this.journalPath, pid);
      rmSync(this.path, { force: true });
    }
  }

  /** Gives the lock up (at close). */
  release(): void {
    if (!this.held) return;
    this.held = false;
    rmSync(this.path, { force: true });
  }
}
