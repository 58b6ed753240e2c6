import { afterAll, beforeAll, expect, it } from 'vitest';
import { duplicateRows, QueueSweepWorld, runsById } from '../helpers/queue-sweep-harness.ts';
import { describeWithRedis } from '../helpers/redis-server.ts';
import { waitForExit } from './helpers/child-process.ts';

// Issue 17, points 1 and 4: the submitter killed with -9 mid-sweep and run again
// reattaches to the same jobs (ids are digests of spec, params, data and code); Ctrl-C
// without a terminal leaves the jobs queued by default, the workers finish them, and a
// rerun only reads their results.

let world: QueueSweepWorld;

/** Waits until `n` jobs completed and at least one did not yet. */
async function partway(n: number): Promise<void> {
  await world.waitFor(
    async () => {
      const c = await world.census();
      return c.completed >= n && c.unfinished > 0;
    },
    30_000,
    `${n} completed job(s) with others left`,
  );
}

describeWithRedis('e2e: sweep on the queue, the submitter killed or interrupted', () => {
  beforeAll(async () => {
    world = await QueueSweepWorld.start();
    await world.startWorkers(2);
  }, 60_000);
  afterAll(() => world?.dispose(), 30_000);

  it('reattaches after kill -9: no job queued or run twice, none lost', {
    timeout: 120_000,
  }, async () => {
    const spec = world.writeSpec('reattach', {
      grid: { 'sma.fast': [3, 5], 'sma.slow': [8, 13, 21] },
      holdMs: 1_500,
    });
    const first = world.submit(spec);
    await partway(1);
    first.child.signal('SIGKILL');
    expect((await waitForExit(first.child, 10_000)).signal).toBe('SIGKILL');

    const rerun = await world.sweep(spec);
    expect(rerun.code, rerun.stderr).toBe(0);
    const done = Number(/6 jobs \((\d+) already done/.exec(rerun.stdout)?.[1] ?? -1);
    expect(done).toBeGreaterThanOrEqual(1);
    expect(rerun.results).toHaveLength(6);
    expect(duplicateRows(rerun.results)).toBe(0);
    const c = await world.census();
    const lost = 6 - c.completed - c.failed;
    // Checked it can fail: with a random nonce in sweepJobId's digest, the rerun found
    // "0 already done" (above) and queued its own 6 jobs beside the first submission's.
    expect({ jobs: c.jobs, completions: c.completions, duplicates: c.duplicates, lost }).toEqual({
      jobs: 6,
      completions: 6,
      duplicates: 0,
      lost: 0,
    });
    // No worker died, so every job started exactly once.
    expect([...c.byId.values()].map((j) => j.events.active)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(runsById(rerun.results)).toEqual(runsById(await world.localSweep(spec)));
  });

  it('Ctrl-C leaves the jobs queued by default; the workers finish them', {
    timeout: 120_000,
  }, async () => {
    const spec = world.writeSpec('interrupt', {
      grid: { 'sma.fast': [3, 5], 'sma.slow': [13, 21] },
      holdMs: 1_500,
    });
    const before = (await world.census()).jobs;
    const s = world.submit(spec);
    await world.waitFor(
      async () => (await world.census()).jobs === before + 4,
      30_000,
      'the 4 jobs queued',
    );
    s.child.signal('SIGINT');
    const exit = await waitForExit(s.child, 15_000);
    expect(exit.code).toBe(130);
    expect(s.child.stderr()).toMatch(/interrupted: left \d unfinished job\(s\) queued/);
    // Left queued: the workers complete all 4 without a submitter.
    // Checked it can fail: with interruptDecision's no-terminal default set to remove,
    // the waiting jobs were removed and this wait timed out.
    await world.waitFor(
      async () => (await world.census()).completed === before + 4,
      30_000,
      'the workers to finish the interrupted sweep',
    );
    const rerun = await world.sweep(spec);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stdout).toMatch(/4 jobs \(4 already done/);
    const c = await world.census();
    expect({ jobs: c.jobs, completions: c.completions, duplicates: c.duplicates }).toEqual({
      jobs: before + 4,
      completions: before + 4,
      duplicates: 0,
    });
  });
});
