import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ThreadCrashError, ThreadPoolClosedError } from '../../src/backtest/slot-pool.ts';
import type { SweepJob } from '../../src/backtest/sweep-protocol.ts';
import { ThreadPool } from '../../src/backtest/thread-pool.ts';

const cwd = process.cwd();

/** The ORB spec over the first hour and three quarters of the sample day, as text. */
function orbText(data = join(cwd, 'backtests/data/sample-day')): string {
  return readFileSync('backtests/opening-range-breakout.yaml', 'utf8')
    .replace('data: data/sample-day', `data: ${data}`)
    .replace('capital: 1000000', 'capital: 1000000\n  to: "2026-11-20T11:00:00+05:30"')
    .replace(/module: \.\.\/strategies\//, `module: ${cwd}/strategies/`);
}

/** A spec file of the ORB text in a temp folder. */
function orbFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'tr-pool-')), 'orb.yaml');
  writeFileSync(file, orbText());
  return file;
}

const job = (id: number, specFile: string, minutes: number, more: Partial<SweepJob> = {}) =>
  ({
    type: 'job',
    id,
    specFile,
    params: { 'orb.rangeMinutes': minutes },
    ...more,
  }) as SweepJob;

let pool: ThreadPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('ThreadPool', () => {
  it('keeps its threads between jobs: later jobs run on the threads already started', async () => {
    pool = new ThreadPool(2, () => {});
    const spec = orbFile();
    const first = await pool.run(job(0, spec, 5));
    expect(first.ok).toBe(true);
    expect(pool.threads).toBe(1);
    // Three more at once on a pool of two: both threads busy, never a third.
    const more = await Promise.all([1, 2, 3].map((id) => pool?.run(job(id, spec, 15))));
    expect(more.map((r) => r?.ok)).toEqual([true, true, true]);
    expect(pool.threads).toBe(2);
    expect(new Set(more.map((r) => r?.worker)).size).toBe(2);
    expect(more.map((r) => r?.worker)).toContain(first.worker);
    // The same point gives the same summary whichever thread ran it.
    expect(more[0]?.ok && more[1]?.ok && more[0].summary).toEqual(more[1]?.ok && more[1].summary);
    expect(pool.busy).toBe(0);
  });

  it('parses the job’s spec text instead of a file, and replays its dataDir', async () => {
    pool = new ThreadPool(1, () => {});
    const fromFile = await pool.run(job(0, orbFile(), 15));
    // No such file, and a data path that does not exist: the text and dataDir win.
    const nowhere = join(tmpdir(), 'tr-pool-nowhere', 'orb.yaml');
    const fromText = await pool.run(
      job(1, nowhere, 15, {
        specText: orbText('/no/such/recording'),
        dataDir: join(cwd, 'backtests/data/sample-day'),
      }),
    );
    expect(fromText.ok).toBe(true);
    expect(fromFile.ok && fromText.ok && fromText.summary).toEqual(fromFile.ok && fromFile.summary);
    // Without dataDir the spec's own (missing) data is used: the run fails.
    const noData = await pool.run(job(2, nowhere, 15, { specText: orbText('/no/such/recording') }));
    expect(noData.ok).toBe(false);
  });

  it('rejects a job whose thread died, and runs the next on a new thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tr-pool-'));
    const spec = join(dir, 'exit.yaml');
    writeFileSync(
      spec,
      orbText().replace(
        'strategies:\n',
        `strategies:\n  - id: ex\n    module: ${cwd}/test/fixtures/strategies/exits-thread.ts\n`,
      ),
    );
    pool = new ThreadPool(1, () => {});
    const crash = pool.run({ type: 'job', id: 0, specFile: spec, params: { 'ex.exit': true } });
    await expect(crash).rejects.toBeInstanceOf(ThreadCrashError);
    await expect(crash).rejects.toThrow(/sweep worker crashed: thread exited with code 7/);
    const next = await pool.run({ type: 'job', id: 1, specFile: spec, params: {} });
    expect(next.ok).toBe(true);
    expect(pool.threads).toBe(1);
  });

  it('close refuses jobs waiting and later ones', async () => {
    const p = new ThreadPool(1, () => {});
    const spec = orbFile();
    // Caught at once: they reject inside close(), before the expects below look.
    const running = p.run(job(0, spec, 5)).catch((err: unknown) => err);
    const waiting = p.run(job(1, spec, 5)).catch((err: unknown) => err);
    await p.close();
    expect(await running).toBeInstanceOf(ThreadCrashError);
    expect(await waiting).toBeInstanceOf(ThreadPoolClosedError);
    await expect(p.run(job(2, spec, 5))).rejects.toBeInstanceOf(ThreadPoolClosedError);
    expect(p.threads).toBe(0);
  });
});
