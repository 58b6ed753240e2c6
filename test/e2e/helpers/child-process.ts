import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

/** The repository root: children run `node bin/tiqs-runner.js` from here. */
export const REPO = resolve(import.meta.dirname, '../../..');

/** A spawned `tiqs-runner` process with its output collected line by line. */
export interface Child {
  readonly proc: ChildProcess;
  readonly pid: number;
  /** stdout lines so far. */
  readonly lines: string[];
  /** stderr text so far. */
  stderr(): string;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Waits until a stdout line matches, at most `timeoutMs`; rejects on exit or timeout. */
  waitForLine(test: (line: string) => boolean, timeoutMs: number, what: string): Promise<string>;
  /** Sends a signal if the process still runs. */
  signal(sig: NodeJS.Signals): void;
}

const running = new Set<Child>();

/** Spawns `node bin/tiqs-runner.js ...args`, in `cwd` (default: the repository root). */
export function spawnRunner(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  cwd = REPO,
): Child {
  const proc = spawn(process.execPath, [resolve(REPO, 'bin/tiqs-runner.js'), ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let partial = '';
  let err = '';
  const waiters = new Set<() => void>();
  proc.stdout?.on('data', (b: Buffer) => {
    const text = partial + b.toString('utf8');
    const parts = text.split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
    for (const w of [...waiters]) w();
  });
  proc.stderr?.on('data', (b: Buffer) => {
    err += b.toString('utf8');
  });
  let exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    proc.on('exit', (code, signal) => {
      if (partial !== '') lines.push(partial);
      partial = '';
      exitInfo = { code, signal };
      running.delete(child);
      for (const w of [...waiters]) w();
      done(exitInfo);
    });
  });
  const child: Child = {
    proc,
    pid: proc.pid ?? -1,
    lines,
    stderr: () => err,
    exited,
    signal(sig) {
      if (exitInfo === undefined) proc.kill(sig);
    },
    waitForLine(test, timeoutMs, what) {
      return new Promise<string>((resolveLine, reject) => {
        let seen = 0;
        const check = () => {
          for (; seen < lines.length; seen++) {
            const line = lines[seen] ?? '';
            if (test(line)) {
              finish();
              resolveLine(line);
              return;
            }
          }
          if (exitInfo !== undefined) {
            finish();
            reject(
              new Error(
                `process exited (${JSON.stringify(exitInfo)}) before ${what}; stderr: ${err.slice(-2_000)}`,
              ),
            );
          }
        };
        const timer = setTimeout(() => {
          finish();
          reject(
            new Error(
              `timed out after ${timeoutMs} ms waiting for ${what}; stderr: ${err.slice(-2_000)}`,
            ),
          );
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
  };
  running.add(child);
  return child;
}

/** Waits for a child's exit, at most `timeoutMs`; rejects (the child keeps running) on timeout. */
export async function waitForExit(
  child: Child,
  timeoutMs: number,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
  const began = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no exit within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const r = await Promise.race([child.exited, timeout]);
    return { ...r, ms: Date.now() - began };
  } finally {
    clearTimeout(timer);
  }
}

/** SIGKILLs every child still running (test clean-up) and waits for them to go. */
export async function killAll(): Promise<void> {
  const left = [...running];
  for (const c of left) c.signal('SIGKILL');
  await Promise.all(left.map((c) => c.exited));
}
