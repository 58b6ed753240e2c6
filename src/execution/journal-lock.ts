import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { processAlive } from './process-alive.ts';

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

/** This machine's boot (Linux), so a lock written before a reboot is known stale. */
function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** When process `pid` started, in clock ticks since boot (Linux), so a reused pid is told apart. */
function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (in parentheses, which may hold spaces): the 22nd
    // field of the line, starttime, is the 20th after it.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** The lock file's text: the pid, then (where the system tells) boot id and start time. */
function identity(pid: number): string {
  const boot = bootId();
  const start = startTime(pid);
  return boot === undefined || start === undefined ? String(pid) : `${pid} ${boot} ${start}`;
}

/**
 * Whether the lock's writer still runs: its pid alive and, when the lock names them, the
 * same boot and the same start time (after a crash and a reboot, or a container restart,
 * its pid may belong to another process, which must not keep the journal locked).
 */
function writerAlive(text: string): number | undefined {
  const [pidText, boot, start] = text.trim().split(' ');
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || !processAlive(pid))
    return undefined;
  const here = bootId();
  if (boot !== undefined && here !== undefined && boot !== here) return undefined;
  if (start !== undefined) {
    const now = startTime(pid);
    if (now !== undefined && now !== start) return undefined;
  }
  return pid;
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
        writeSync(fd, identity(process.pid));
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
