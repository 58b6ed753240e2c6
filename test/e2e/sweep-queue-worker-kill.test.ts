import { afterAll, beforeAll, expect, it } from 'vitest';
import { duplicateRows, QueueSweepWorld, runsById } from '../helpers/queue-sweep-harness.ts';
import { describeWithRedis } from '../helpers/redis-server.ts';
import { waitForExit } from './helpers/child-process.ts';

// Issue 17, point 4: a worker killed with -9 in the middle of a job. BullMQ sees the
// job's lock lapse (TIQS_QUEUE_LOCK_MS 2 s here), another worker's stalled check moves it
// back to wait, another worker completes it, and its result is recorded once.

let world: QueueSweepWorld;

describeWithRedis('e2e: sweep on the queue, a worker killed with -9 mid-job', () => {
  beforeAll(async () => {
    world = await QueueSweepWorld.start();
    await world.startWorkers(3);
  }, 60_000);
  afterAll(() => world?.dispose(), 30_000);

  it('completes the killed job on another worker, once: nothing lost, nothing doubled', {
    timeout: 120_000,
  }, async () => {
    // Each run holds its thread 2.5 s (the probe), so the kill lands mid-job.
    const spec = world.writeSpec('kill', {
      grid: { 'sma.fast': [3, 5], 'sma.slow': [8, 13, 21] },
      holdMs: 2_500,
    });
    const submitter = world.submit(spec);
    const victim = await world.activeJob(30_000);
    const worker = world.workerNamed(victim.worker);
    worker.signal('SIGKILL');
    expect((await waitForExit(worker, 10_000)).signal).toBe('SIGKILL');

    const done = await world.finish(submitter, 90_000);
    expect(done.code, done.stderr).toBe(0);
    // Checked it can fail: with the submitter recording a stalled job's result twice
    // (a second push in QueueExecutor's check when job.stalledCounter > 0), sweep.json
    // held 7 results here.
    expect(done.results).toHaveLength(6);
    expect(done.results.every((r) => r.ok)).toBe(true);
    expect(duplicateRows(done.results)).toBe(0);

    const c = await world.census();
    const lost = 6 - c.completed - c.failed;
    // Checked it can fail: with the workers' lock at 10 minutes (TIQS_QUEUE_LOCK_MS
    // 600000 in STALL_ENV), the killed worker's job was never taken back: the submitter
    // did not finish within 90 s (the job lost).
    expect({
      jobs: c.jobs,
      completed: c.completed,
      completions: c.completions,
      duplicates: c.duplicates,
      lost,
    }).toEqual({
      jobs: 6,
      completed: 6,
      completions: 6,
      duplicates: 0,
      lost: 0,
    });
    const killed = c.byId.get(victim.id);
    expect(killed?.events.stalled).toBeGreaterThanOrEqual(1);
    expect(killed?.events.active).toBeGreaterThanOrEqual(2);
    expect(killed?.events.completed).toBe(1);
    expect(killed?.runner).not.toBe(victim.worker);
    const row = done.results.find((r) => r.jobId === victim.id);
    expect(row?.runner).toBe(killed?.runner);

    // The killed worker's job gives the same result as the local sweep's run.
    expect(runsById(done.results)).toEqual(runsById(await world.localSweep(spec)));
  });
});
