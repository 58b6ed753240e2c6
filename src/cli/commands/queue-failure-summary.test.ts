import { describe, expect, it } from 'vitest';
import type { SweepResult } from '../../backtest/sweep-protocol.ts';
import { queueFailureSummary } from './queue-failure-summary.ts';

type Row = SweepResult & { runner?: string };
const ok = (id: number): Row => ({ type: 'result', id, params: {}, ok: true }) as Row;
const failed = (id: number, error: string, runner?: string): Row =>
  ({ type: 'result', id, params: {}, ok: false, error, ...(runner ? { runner } : {}) }) as Row;

describe('queueFailureSummary', () => {
  it('counts runs the queue failed, by reason and runner', () => {
    const line = queueFailureSummary([
      ok(0),
      failed(1, 'queue job failed after 1 attempt: code version mismatch: …', 'vm:2314'),
      failed(2, 'queue job failed after 1 attempt: code version mismatch: …', 'vm:2314'),
      failed(3, 'queue job failed after 2 attempts: job stalled more than allowable limit'),
      failed(4, 'strategy sma threw: boom', 'vm:1'),
    ]);
    // Checked it can fail: with queueFailureKind counting every failed run, 4 of 5.
    expect(line).toBe(
      '3 of 5 runs failed for queue reasons, not their strategy: 2 code version (on vm:2314), ' +
        '1 stalled; run the same command again once the workers are fixed to queue them again',
    );
  });

  it('a strategy that fails is its result, not a queue failure', () => {
    expect(queueFailureSummary([ok(0), failed(1, 'strategy sma threw: boom')])).toBeUndefined();
  });
});
