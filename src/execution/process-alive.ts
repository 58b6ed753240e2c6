/**
 * Whether process `pid` runs on this machine: signal 0 checks without signalling. A
 * process we may not signal (EPERM: another user's) runs too. For locks and pins that
 * name their writer's pid (the journal lock, a queue worker's cache pins).
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
