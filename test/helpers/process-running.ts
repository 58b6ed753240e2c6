import { readFileSync } from 'node:fs';

/**
 * Whether the process `pid` runs, read from /proc (Linux): a zombie has exited, only its
 * exit status is left, so it does not count (`kill(pid, 0)` would say it is there).
 *
 * @example
 * ```ts
 * await pollUntil(() => !processRunning(child.pid), 5_000, 'the child to exit');
 * ```
 */
export function processRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
