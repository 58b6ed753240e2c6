import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { QueueSweepWorld } from '../helpers/queue-sweep-harness.ts';
import { describeWithRedis } from '../helpers/redis-server.ts';
import { waitForExit } from './helpers/child-process.ts';

// Review 17, M2/N10: a Redis that stops answering without closing its sockets (SIGSTOP:
// a hung server, a partition with no reset) must not leave the submitter silent. It says
// `… not answering for N s; waiting (Ctrl-C to stop)` (never "no worker connected": the
// workers are there, Redis is what went), and Ctrl-C still exits 130, bounded, with the
// jobs left queued (the default).

let world: QueueSweepWorld;
let stoppedPid: number | undefined;

/** redis-server's pid, as it reports it (the helper does not expose its child). */
async function redisPid(url: string): Promise<number> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    const info = await client.info('server');
    const pid = Number(/process_id:(\d+)/.exec(info)?.[1]);
    if (!Number.isInteger(pid) || pid <= 0) throw new Error(`no process_id in INFO: ${info}`);
    return pid;
  } finally {
    client.disconnect();
  }
}

/** Lets a stopped Redis run again (idempotent: also the cleanup after a failure). */
function resume(): void {
  if (stoppedPid === undefined) return;
  try {
    process.kill(stoppedPid, 'SIGCONT');
  } catch {
    // Gone already: nothing to resume.
  }
  stoppedPid = undefined;
}

describeWithRedis('e2e: sweep on the queue, Redis hung (SIGSTOP)', () => {
  beforeAll(async () => {
    world = await QueueSweepWorld.start();
    await world.startWorkers(1);
  }, 60_000);
  afterAll(async () => {
    resume();
    await world?.dispose();
  }, 30_000);

  it('says Redis is not answering, and Ctrl-C exits 130 leaving the jobs queued', {
    timeout: 120_000,
  }, async () => {
    const spec = world.writeSpec('hang', {
      grid: { 'sma.fast': [3, 5], 'sma.slow': [13, 21] },
      holdMs: 1_500,
    });
    const pid = await redisPid(world.url);
    const s = world.submit(spec);
    // The submitter is in its wait: its jobs are queued and one runs on the worker.
    await s.child
      .waitForLine((l) => /4 jobs \(/.test(l), 30_000, 'the submit line')
      .catch((err: Error) => {
        throw new Error(`${err.message}; submitter stderr: ${s.child.stderr()}`, { cause: err });
      });
    await world.activeJob(30_000);
    process.kill(pid, 'SIGSTOP');
    stoppedPid = pid;
    const stoppedAt = Date.now();
    try {
      // Checked it can fail: with the submitter's silence watch not started, nothing was
      // said and this wait timed out (the state before review 17's M2).
      await world.waitFor(
        () => /not answering for \d+ s; waiting \(Ctrl-C to stop\)/.test(s.child.stderr()),
        25_000,
        'the submitter to say Redis is not answering',
      );
      const saidAfter = Date.now() - stoppedAt;
      expect(saidAfter).toBeLessThan(25_000);
      expect(s.child.stderr()).toContain(`${world.url} not answering`);
      expect(s.child.stderr()).not.toMatch(/no worker is connected/);

      const interruptedAt = Date.now();
      s.child.signal('SIGINT');
      // Bounded: the interrupt races the stuck reads, and closing the clients is bounded.
      const exit = await waitForExit(s.child, 20_000);
      expect(exit.code, s.child.stderr()).toBe(130);
      expect(Date.now() - interruptedAt).toBeLessThan(20_000);
      expect(s.child.stderr()).toMatch(/interrupted: left \d unfinished job\(s\) queued/);
    } finally {
      resume();
    }
    // Redis back: the jobs were left, the worker finishes them, a rerun collects all 4.
    const rerun = await world.sweep(spec, {}, 60_000);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.results).toHaveLength(4);
  });
});
