import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { QueueSweepWorld, runsById, SAMPLE_DAY } from '../helpers/queue-sweep-harness.ts';
import { describeWithRedis } from '../helpers/redis-server.ts';

// Issue 17, point 3: with a shared folder given as `--data-dir` to the submitter and the
// workers, the data goes through that folder (`<dir>/<sha256>`), not through Redis.

const sha = (f: string) =>
  createHash('sha256')
    .update(readFileSync(join(SAMPLE_DAY, f)))
    .digest('hex');

let world: QueueSweepWorld;
let shared: string;

describeWithRedis('e2e: sweep on the queue with --data-dir', () => {
  beforeAll(async () => {
    world = await QueueSweepWorld.start();
    shared = world.folder('shared-data');
    await world.startWorkers(2, { dataDir: shared });
  }, 60_000);
  afterAll(() => world?.dispose(), 30_000);

  it('passes the files through the shared folder by digest; the blob store stays unused', {
    timeout: 120_000,
  }, async () => {
    const spec = world.writeSpec('data-dir', { grid: { 'sma.fast': [3, 5], 'sma.slow': [8, 21] } });
    const done = await world.sweep(spec, { dataDir: shared });
    expect(done.code, done.stderr).toBe(0);
    expect(runsById(done.results)).toEqual(runsById(await world.localSweep(spec)));
    // Checked it can fail: with the harness dropping the submitter's --data-dir, the files
    // went through Redis and this folder stayed empty.
    expect(readdirSync(shared).sort()).toEqual([sha('meta.json'), sha('quotes.bin.gz')].sort());
    expect(await world.blobStats()).toEqual({
      uploads: 0,
      uploadBytes: 0,
      downloads: 0,
      downloadBytes: 0,
    });
    const c = await world.census();
    expect({ jobs: c.jobs, completions: c.completions, duplicates: c.duplicates }).toEqual({
      jobs: 4,
      completions: 4,
      duplicates: 0,
    });
  });
});
