import { afterAll, beforeAll, expect, it } from 'vitest';
import { duplicateRows, QueueSweepWorld, runsById } from '../helpers/queue-sweep-harness.ts';
import { describeWithRedis } from '../helpers/redis-server.ts';

// Issue 17, point 4: a job whose run throws (the probe strategy's `fail` param throws at
// setup) is reported with its params and error, and the other jobs go on: the run's
// failure is its result, as in a local sweep, not a queue failure to retry.

let world: QueueSweepWorld;

describeWithRedis('e2e: sweep on the queue, a job that throws', () => {
  beforeAll(async () => {
    world = await QueueSweepWorld.start();
    await world.startWorkers(2);
  }, 60_000);
  afterAll(() => world?.dispose(), 30_000);

  it('reports the failed runs with params and error; the others complete', {
    timeout: 120_000,
  }, async () => {
    const spec = world.writeSpec('throws', {
      grid: { 'sma.slow': [8, 13], 'probe.fail': [false, true] },
    });
    const done = await world.sweep(spec);
    // As a local sweep: failed runs are ranked last, the sweep itself succeeds.
    expect(done.code, done.stderr).toBe(0);
    expect(done.results).toHaveLength(4);
    expect(duplicateRows(done.results)).toBe(0);
    const failed = done.results.filter((r) => !r.ok);
    // Checked it can fail: with the probe's throw removed (fail ignored), no run failed:
    // this list was empty.
    expect(
      failed.map((r) => r.params).sort((a, b) => Number(a['sma.slow']) - Number(b['sma.slow'])),
    ).toEqual([
      { 'probe.fail': true, 'sma.slow': 8 },
      { 'probe.fail': true, 'sma.slow': 13 },
    ]);
    for (const r of failed) expect(r.error).toMatch(/sweep-probe fails on purpose/);
    expect(done.results.filter((r) => r.ok && r.summary !== undefined)).toHaveLength(2);
    // The ranked table names each failure with its params.
    expect(done.stdout).toMatch(
      /failed: .*sweep-probe fails on purpose.*probe\.fail=true sma\.slow=8/,
    );
    expect(done.stdout).toMatch(
      /failed: .*sweep-probe fails on purpose.*probe\.fail=true sma\.slow=13/,
    );

    // In Redis: 4 jobs, all completed (a run's failure is a result), none retried.
    const c = await world.census();
    expect({
      jobs: c.jobs,
      completed: c.completed,
      failed: c.failed,
      completions: c.completions,
      duplicates: c.duplicates,
    }).toEqual({
      jobs: 4,
      completed: 4,
      failed: 0,
      completions: 4,
      duplicates: 0,
    });
    expect(runsById(done.results)).toEqual(runsById(await world.localSweep(spec)));
  });
});
