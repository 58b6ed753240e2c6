import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processRunning } from '../helpers/process-running.ts';

const root = process.cwd();
/** Bound of every wait below: a CLI start, two worker processes and their strategy loads. */
const BOUND_MS = 20_000;

/**
 * A two-point sweep of the blocks-worker fixture, whose strategy holds its worker's main
 * thread for ever once it has written `<mark>-<pid>`.
 */
function blockingSweep(dir: string): string {
  const spec = join(dir, 'blocks.yaml');
  writeFileSync(
    spec,
    [
      'backtest:',
      `  data: ${join(root, 'backtests/data/sample-day')}`,
      '  capital: 1000000',
      '  sweep:',
      '    rankBy: netPnl',
      '    params:',
      '      bw.n: [1, 2]',
      'strategies:',
      '  - id: bw',
      `    module: ${join(root, 'test/fixtures/strategies/blocks-worker.ts')}`,
      `    params: { mark: ${join(dir, 'mark')} }`,
      '',
    ].join('\n'),
  );
  return spec;
}

/** Polls `ready` on real I/O (the processes under test), up to {@link BOUND_MS}. */
async function until<T>(what: string, ready: () => T | undefined): Promise<T> {
  const deadline = Date.now() + BOUND_MS;
  for (;;) {
    const value = ready();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let cli: ChildProcess | undefined;
let workers: number[] = [];
afterEach(() => {
  // Whatever the test saw, nothing it started runs on.
  cli?.kill('SIGKILL');
  for (const pid of workers.filter(processRunning)) process.kill(pid, 'SIGKILL');
  cli = undefined;
  workers = [];
});

describe('backtest --sweep worker processes', () => {
  it.each(['SIGKILL', 'SIGTERM', 'SIGINT'] as const)(
    'leaves no worker running when the CLI gets %s mid-job, even a worker whose job holds its thread',
    async (signal) => {
      const dir = mkdtempSync(join(tmpdir(), 'tr-sweep-children-'));
      const spec = blockingSweep(dir);
      const args = ['--config', spec, '--sweep', '--workers', '2', '--out', join(dir, 'out')];
      cli = spawn(process.execPath, [join(root, 'bin/tiqs-runner.js'), 'backtest', ...args], {
        cwd: dir,
        stdio: 'ignore',
      });
      const exited = new Promise((resolve) => cli?.once('exit', resolve));
      // Both jobs running, each in a worker process of its own.
      workers = await until('both jobs to start', () => {
        const marks = readdirSync(dir).filter((f) => f.startsWith('mark-'));
        return marks.length === 2 ? marks.map((f) => Number(f.slice('mark-'.length))) : undefined;
      });
      expect(new Set(workers).size).toBe(2);
      expect(workers).not.toContain(cli.pid);
      expect(workers.every(processRunning)).toBe(true);
      // The signal to the CLI alone (not its process group, as a terminal's Ctrl-C would).
      cli.kill(signal);
      await exited;
      await until('the workers to exit', () => (workers.some(processRunning) ? undefined : true));
      expect(workers.filter(processRunning)).toEqual([]);
      expect(existsSync(join(dir, 'out', 'sweep.json'))).toBe(false);
    },
  );
});
