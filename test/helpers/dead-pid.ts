import { spawn } from 'node:child_process';

/**
 * A pid no process has: one that ran and exited (`node -e 0`), for tests of what a lock or
 * a holder file naming a dead process leads to. The kernel may hand the pid out again,
 * but not within a test's few milliseconds on a machine that cycles through its pid space.
 */
export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  const pid = child.pid ?? 0;
  await new Promise((r) => child.on('exit', r));
  return pid;
}
