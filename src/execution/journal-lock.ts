import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { processIdentity, runningProcess } from './process-identity.ts';

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

  /** Takes the lock, or throws {@link JournalLockedError}. */
  acquire(): void {
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

  /** Gives the lock up (at close). */
  release(): void {
    if (!this.held) return;
    this.held = false;
    rmSync(this.path, { force: true });
  }
}
