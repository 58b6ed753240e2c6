import { describe, expect, it } from 'vitest';
import { memoryLogger } from '../../market-data/testing/fake-quote-source.ts';
import { WorkerReconnectLog } from './worker-reconnect-log.ts';

describe('WorkerReconnectLog', () => {
  it('logs the first loss, then at most one line per interval, then the reconnect', () => {
    const { lines, logger: log } = memoryLogger('info');
    let now = 0;
    const rl = new WorkerReconnectLog(log, () => now, 30_000);
    // An outage of 95 s with a failure every 2 s: 48 failures.
    for (; now <= 94_000; now += 2_000) rl.lost(new Error('connect ECONNREFUSED'));
    expect(rl.down).toBe(true);
    rl.back();
    rl.back(); // already up: nothing more
    expect(lines.map((l) => l.msg)).toEqual([
      'redis connection lost; reconnecting (jobs running go on)',
      'redis still unreachable; reconnecting',
      'redis still unreachable; reconnecting',
      'redis still unreachable; reconnecting',
      'redis reconnected',
    ]);
    expect(lines[1]).toMatchObject({ failures: 15, downSeconds: 30 });
    expect(lines[4]).toMatchObject({ failures: 48, downSeconds: 96 });
    expect(rl.down).toBe(false);
  });

  it('a second outage starts afresh', () => {
    const { lines, logger: log } = memoryLogger('info');
    let now = 0;
    const rl = new WorkerReconnectLog(log, () => now, 30_000);
    rl.lost('x');
    now = 1_000;
    rl.back();
    now = 2_000;
    rl.lost('y');
    expect(lines.map((l) => l.msg)).toEqual([
      'redis connection lost; reconnecting (jobs running go on)',
      'redis reconnected',
      'redis connection lost; reconnecting (jobs running go on)',
    ]);
    expect(lines[2]).toMatchObject({ error: 'y' });
  });
});
