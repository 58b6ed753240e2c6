import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  duplicateRows,
  QueueSweepWorld,
  runsById,
  SAMPLE_DAY,
} from '../helpers/queue-sweep-harness.ts';
import { describeWithRedis } from '../helpers/redis-server.ts';

// Issue 17, points 1, 3 and 5: a sweep on the queue, run by two `tiqs-runner worker`
// processes (each with its own cache, as on two machines), gives exactly the local
// sweep's results run for run; a rerun of the submission runs nothing again and reads
// the results from the queue; the data goes to Redis once per file and a second sweep
// on the same data sends nothing.

/** The sample day's files: meta.json and quotes.bin.gz. */
const FILES = ['meta.json', 'quotes.bin.gz'];
const BYTES = FILES.reduce((n, f) => n + statSync(join(SAMPLE_DAY, f)).size, 0);

let world: QueueSweepWorld;

describeWithRedis('e2e: sweep on the queue == local sweep', () => {
  beforeAll(async () => {
    world = await QueueSweepWorld.start();
    await world.startWorkers(2);
  }, 60_000);
  afterAll(() => world?.dispose(), 30_000);

  it('gives the local sweep results run for run, then reattaches without rerunning', {
    timeout: 120_000,
  }, async () => {
    const spec = world.writeSpec('parity', {
      grid: { 'sma.fast': [3, 5], 'sma.slow': [8, 13, 21] },
    });
    const local = await world.localSweep(spec);
    expect(local).toHaveLength(6);

    const first = await world.sweep(spec);
    expect(first.code, first.stderr).toBe(0);
    // Checked it can fail: with the submitter changing each result's summary (trades + 1
    // in completedResult), this comparison went red here and in every file that uses it.
    expect(runsById(first.results)).toEqual(runsById(local));
    expect(first.results.every((r) => r.jobId?.startsWith('run-') && r.runner !== undefined)).toBe(
      true,
    );
    const c1 = await world.census();
    const lost1 = 6 - c1.completed - c1.failed;
    expect({
      jobs: c1.jobs,
      completions: c1.completions,
      duplicates: c1.duplicates,
      lost: lost1,
    }).toEqual({ jobs: 6, completions: 6, duplicates: 0, lost: 0 });
    expect(duplicateRows(first.results)).toBe(0);
    // The runners named in sweep.json are the workers that completed the jobs in Redis.
    for (const r of first.results) expect(c1.byId.get(r.jobId ?? '')?.runner).toBe(r.runner);

    // Published once per file; each worker that ran a job downloaded each file once.
    // Checked it can fail: with fetchData's cache check removed (every job fetches), the
    // downloads went past 2 per worker here, and to 16 instead of 4 in the next test.
    const runners1 = new Set(first.results.map((r) => r.runner));
    const b1 = await world.blobStats();
    expect(b1).toEqual({
      uploads: FILES.length,
      uploadBytes: BYTES,
      downloads: FILES.length * runners1.size,
      downloadBytes: BYTES * runners1.size,
    });

    // Rerun of the same submission: same job ids, nothing runs again (no new `active`
    // event), results read from the queue, nothing uploaded or downloaded.
    // Checked it can fail: with a random nonce in sweepJobId's digest, the rerun said
    // "6 jobs (0 already done" and queued them again (the next test then counted 14 jobs
    // and 14 completions instead of 8).
    const again = await world.sweep(spec);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/6 already done/);
    expect(runsById(again.results)).toEqual(runsById(local));
    const c2 = await world.census();
    expect({ jobs: c2.jobs, completions: c2.completions, duplicates: c2.duplicates }).toEqual({
      jobs: 6,
      completions: 6,
      duplicates: 0,
    });
    const starts = (c: typeof c1) => [...c.byId.values()].reduce((n, j) => n + j.events.active, 0);
    expect(starts(c2)).toBe(starts(c1));
    expect(await world.blobStats()).toEqual(b1);
  });

  it('sends nothing on a second sweep of the same data', { timeout: 120_000 }, async () => {
    const before = await world.blobStats();
    expect(before.uploads).toBe(FILES.length); // the first test's sweep published them
    const spec = world.writeSpec('second', { grid: { 'sma.fast': [3, 5], 'sma.slow': [34] } });
    const second = await world.sweep(spec);
    expect(second.code, second.stderr).toBe(0);
    expect(second.results.filter((r) => r.ok)).toHaveLength(2);
    expect(runsById(second.results)).toEqual(runsById(await world.localSweep(spec)));
    const c = await world.census();
    expect({ jobs: c.jobs, completions: c.completions, duplicates: c.duplicates }).toEqual({
      jobs: 8,
      completions: 8,
      duplicates: 0,
    });
    const after = await world.blobStats();
    expect(after.uploads).toBe(before.uploads);
    // Each worker's cache fetched each file once over both sweeps: a worker that ran a
    // job of the first sweep fetched nothing now.
    const runners = new Set([...c.byId.values()].map((j) => j.runner));
    expect(after.downloads).toBe(FILES.length * runners.size);
  });
});
