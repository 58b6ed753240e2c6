import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../clock/virtual-clock.ts';
import { SimExchange } from '../sim-exchange.ts';

const ist = (s: string): number => Date.parse(`${s}+05:30`);
const MIN = 60_000;
// The simulator starts mid-session on Friday 20 Nov 2026.
const START = ist('2026-11-20T10:00:30');

function sim(startAt: number, seed = 7): SimExchange {
  return new SimExchange({ clock: new VirtualClock(startAt), seed });
}

describe('the simulator past (HistoryModel through the candle tape)', () => {
  it('serves a regular day of 375 minute bars, on the tick, high and low around open and close', () => {
    const bars = sim(START).candles.candles(
      3045,
      '1m',
      ist('2025-06-02T00:00:00'),
      ist('2025-06-02T23:59:59'),
    );
    expect(bars).toHaveLength(375);
    expect(bars[0]?.[0]).toBe(ist('2025-06-02T09:15:00'));
    expect(bars.at(-1)?.[0]).toBe(ist('2025-06-02T15:29:00'));
    for (const [, o, h, l, c, v] of bars) {
      expect([o, h, l, c].every((p) => p > 0 && p % 5 === 0)).toBe(true);
      expect(h).toBeGreaterThanOrEqual(Math.max(o, c));
      expect(l).toBeLessThanOrEqual(Math.min(o, c));
      expect(v).toBeGreaterThan(0);
    }
    // Minutes join: each bar opens at the previous close.
    expect(bars.slice(1).every((b, i) => b[1] === bars[i]?.[4])).toBe(true);
  });

  it('has no bars on weekends and holidays; day candles for trading days only', () => {
    const tape = sim(START).candles;
    // Sat 7 and Sun 8 Jun 2025; 15 Aug 2025 is no sim holiday, 26 Jan 2026 (Monday) is.
    expect(
      tape.candles(3045, '1m', ist('2025-06-07T00:00:00'), ist('2025-06-08T23:59:59')),
    ).toEqual([]);
    expect(
      tape.candles(3045, '1m', ist('2026-01-26T00:00:00'), ist('2026-01-26T23:59:59')),
    ).toEqual([]);
    const days = tape.candles(3045, '1d', ist('2026-01-19T00:00:00'), ist('2026-01-30T23:59:59'));
    expect(days.map((d) => new Date(d[0]).toISOString().slice(0, 10))).toEqual([
      '2026-01-18',
      '2026-01-19',
      '2026-01-20',
      '2026-01-21',
      '2026-01-22',
      '2026-01-26',
      '2026-01-27',
      '2026-01-28',
      '2026-01-29',
    ]);
  });

  it('is the same past whatever the simulator start; another seed gives another', () => {
    const range = [ist('2025-03-03T00:00:00'), ist('2025-03-07T23:59:59')] as const;
    const a = sim(START).candles.candles(26000, '5m', ...range);
    const b = sim(ist('2026-12-01T12:00:00')).candles.candles(26000, '5m', ...range);
    // Mon 3 Mar 2025 is Holi in the simulator's calendar: four days of 75 five-minute bars.
    expect(a).toHaveLength(4 * 75);
    expect(b).toEqual(a);
    expect(sim(START, 8).candles.candles(26000, '5m', ...range)).not.toEqual(a);
  });

  it('ends at the start minute, where the live tape takes over, with no gap or overlap', () => {
    const ex = sim(START);
    ex.clock instanceof VirtualClock && ex.clock.advanceTo(START + 3 * MIN);
    ex.sync();
    const bars = ex.candles.candles(3045, '1m', ist('2026-11-20T09:15:00'), START + 3 * MIN);
    const starts = bars.map((b) => b[0]);
    expect(starts[0]).toBe(ist('2026-11-20T09:15:00'));
    expect(starts.every((s, i) => i === 0 || s - (starts[i - 1] as number) === MIN)).toBe(true);
    expect(starts).toContain(ist('2026-11-20T10:00:00'));
    expect(starts.at(-1)).toBe(ist('2026-11-20T10:03:00'));
  });

  // Its speed is not asserted here (no timed unit tests): `history` over a year takes a few seconds in all.
  it('generates a year of 1m bars for two instruments', () => {
    const tape = sim(START).candles;
    let n = 0;
    for (const token of [3045, 26000]) {
      n += tape.candles(token, '1m', ist('2025-01-01T00:00:00'), ist('2025-12-31T23:59:59')).length;
    }
    expect(n).toBeGreaterThan(2 * 240 * 375);
  });
});
