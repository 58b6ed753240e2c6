import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PoolExecutor } from '../../src/backtest/pool-executor.ts';
import { ProcessPool } from '../../src/backtest/process-pool.ts';
import { ThreadCrashError, ThreadPoolClosedError } from '../../src/backtest/slot-pool.ts';
import type { SweepJob, SweepResult } from '../../src/backtest/sweep-protocol.ts';
import { processRunning } from '../helpers/process-running.ts';

const cwd = process.cwd();

/** The ORB spec over the first hour and three quarters of the sample day, as a file. */
function orbFile(extraStrategy = ''): string {
  const file = join(mkdtempSync(join(tmpdir(), 'tr-process-pool-')), 'orb.yaml');
  writeFileSync(
    file,
    readFileSync('backtests/opening-range-breakout.yaml', 'utf8')
      .replace('data: data/sample-day', `data: ${join(cwd, 'backtests/data/sample-day')}`)
      .replace('capital: 1000000', 'capital: 1000000\n  to: "2026-11-20T11:00:00+05:30"')
      .replace(/module: \.\.\/strategies\//, `module: ${cwd}/strategies/`)
      .replace('strategies:\n', `strategies:\n${extraStrategy}`),
  );
  return file;
}

/** The ORB spec with the exits-thread fixture beside it (`ex.exit: true` ends its worker). */
const exitingFile = () =>
  orbFile(`  - id: ex\n    module: ${cwd}/test/fixtures/strategies/exits-thread.ts\n`);

const job = (id: number, specFile: string, params: SweepJob['params']): SweepJob => ({
  type: 'job',
  id,
  specFile,
  params,
});

let pool: ProcessPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

// Each child process starts the framework: seconds on a loaded 2-core CI machine (11 s for
// one test here, in the unit run beside two busy loops), so more than vitest's default 20 s
// per test.
describe('ProcessPool', { timeout: 60_000 }, () => {
  it('runs jobs in child processes it keeps between jobs, with their log lines', async () => {
    const lines: [string, number][] = [];
    pool = new ProcessPool(2, (text, id) => lines.push([text, id]));
    const spec = orbFile();
    const first = await pool.run(job(0, spec, { 'orb.rangeMinutes': 5 }));
    expect(first.ok).toBe(true);
    expect(pool.threads).toBe(1);
    // The worker is the child's pid: not this process, and one of the pool's.
    expect(first.worker).not.toBe(process.pid);
    expect(pool.pids).toEqual([first.worker]);
    const more = await Promise.all(
      [1, 2, 3].map((id) => pool?.run(job(id, spec, { 'orb.rangeMinutes': 15 }))),
    );
    expect(more.map((r) => r?.ok)).toEqual([true, true, true]);
    expect(pool.threads).toBe(2);
    expect(new Set(more.map((r) => r?.worker)).size).toBe(2);
    expect(more.map((r) => r?.worker)).toContain(first.worker);
    expect(more[0]?.ok && more[0].summary).toEqual(more[1]?.ok && more[1].summary);
    // The runs' log lines came over IPC, each with the job that wrote it.
    expect(lines.length).toBeGreaterThan(0);
    expect(new Set(lines.map(([, id]) => id))).toEqual(new Set([0, 1, 2, 3]));
    expect(pool.busy).toBe(0);
  });

  it('parses the job’s spec text instead of a file, and replays its dataDir (a queued job)', async () => {
    pool = new ProcessPool(1, () => {});
    const file = orbFile();
    const fromFile = await pool.run(job(0, file, { 'orb.rangeMinutes': 15 }));
    // No such file, and a data path that does not exist: the text and dataDir win.
    const text = readFileSync(file, 'utf8').replace(
      join(cwd, 'backtests/data/sample-day'),
      '/no/such/recording',
    );
    const fromText = await pool.run({
      ...job(1, join(tmpdir(), 'tr-process-pool-nowhere', 'orb.yaml'), { 'orb.rangeMinutes': 15 }),
      specText: text,
      dataDir: join(cwd, 'backtests/data/sample-day'),
    });
    expect(fromText.ok).toBe(true);
    expect(fromFile.ok && fromText.ok && fromText.summary).toEqual(fromFile.ok && fromFile.summary);
  });

  it('rejects a job whose child died, and runs the next on a new child', async () => {
    pool = new ProcessPool(1, () => {});
    const spec = exitingFile();
    const crash = pool.run(job(0, spec, { 'ex.exit': true }));
    await expect(crash).rejects.toBeInstanceOf(ThreadCrashError);
    await expect(crash).rejects.toThrow(/sweep worker crashed: process exited with code 7/);
    const next = await pool.run(job(1, spec, {}));
    expect(next.ok).toBe(true);
    expect(pool.threads).toBe(1);
  });

  it('close kills a child under a job, refuses jobs waiting and later ones; no child is left', async () => {
    const p = new ProcessPool(2, () => {});
    const spec = orbFile();
    await p.run(job(0, spec, { 'orb.rangeMinutes': 5 }));
    const pids = p.pids;
    const running0 = p.run(job(1, spec, { 'orb.rangeMinutes': 5 })).catch((err: unknown) => err);
    const running1 = p.run(job(2, spec, { 'orb.rangeMinutes': 5 })).catch((err: unknown) => err);
    const waiting = p.run(job(3, spec, { 'orb.rangeMinutes': 5 })).catch((err: unknown) => err);
    const all = p.pids;
    await p.close();
    expect(await running0).toBeInstanceOf(ThreadCrashError);
    expect(await running1).toBeInstanceOf(ThreadCrashError);
    expect(await waiting).toBeInstanceOf(ThreadPoolClosedError);
    await expect(p.run(job(4, spec, {}))).rejects.toBeInstanceOf(ThreadPoolClosedError);
    expect(p.threads).toBe(0);
    expect(all).toHaveLength(2);
    expect(all).toContain(pids[0]);
    expect(all.filter(processRunning)).toEqual([]);
  });
});

describe('PoolExecutor on processes', { timeout: 60_000 }, () => {
  it('reports a job whose child died as a failed run with its params; the others complete', async () => {
    const spec = exitingFile();
    const jobs = [0, 1, 2, 3].map((id) => job(id, spec, { 'ex.exit': id === 1 }));
    const executor = new PoolExecutor(
      (n, log) => new ProcessPool(n, log),
      2,
      () => {},
    );
    const results: SweepResult[] = [];
    for await (const r of executor.run(jobs)) results.push(r);
    results.sort((a, b) => a.id - b.id);
    expect(results.map((r) => r.ok)).toEqual([true, false, true, true]);
    expect(results[1]).toMatchObject({
      id: 1,
      ok: false,
      params: { 'ex.exit': true },
      error: expect.stringMatching(/sweep worker crashed: process exited with code 7/),
    });
  });
});
