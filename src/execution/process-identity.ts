import { readFileSync } from 'node:fs';
import { processAlive } from './process-alive.ts';

/** This machine's boot (Linux), so a record written before a reboot is known stale. */
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

/**
 * A process's identity as a lock or a pin records it: the pid, then (where the system
 * tells, Linux) the boot id and the process's start time, space-separated. A bare pid
 * can name another process after a reboot or a container restart; the three together
 * name one process.
 *
 * @example
 * ```ts
 * writeFileSync(lockFile, processIdentity(process.pid));
 * ```
 */
export function processIdentity(pid: number): string {
  const boot = bootId();
  const start = startTime(pid);
  return boot === undefined || start === undefined ? String(pid) : `${pid} ${boot} ${start}`;
}

/**
 * The pid of the process an identity (from {@link processIdentity}) names, when that
 * very process still runs: its pid alive and, when the identity names them, the same
 * boot and the same start time. `undefined` otherwise (gone, or its pid now another's).
 */
export function runningProcess(identity: string): number | undefined {
  const [pidText, boot, start] = identity.trim().split(' ');
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0 || !processAlive(pid)) return undefined;
  const here = bootId();
  if (boot !== undefined && here !== undefined && boot !== here) return undefined;
  if (start !== undefined) {
    const now = startTime(pid);
    if (now !== undefined && now !== start) return undefined;
  }
  return pid;
}
