import { describe, expect, it } from 'vitest';
import type { PriceBars } from '../price-sampler.ts';
import type { RoundTrip } from '../round-trips.ts';
import type { FillRecord } from '../trade-ledger.ts';
import { exitReasonOf, tradeDetails } from './trade-details.ts';

const T0 = Date.parse('2026-11-20T09:30:00+05:30');
const MIN = 60_000;

const trip = (over: Partial<RoundTrip>): RoundTrip => ({
  strategyId: 's',
  token: 3045,
  symbol: 'SBIN-EQ',
  direction: 'long',
  openedAt: T0,
  closedAt: T0 + 3 * MIN,
  quantity: 10,
  entryPrice: 80_000,
  exitPrice: 80_200,
  gross: 2_000,
  costs: 100,
  net: 1_900,
  ...over,
});

const fill = (at: number, intentId: string): FillRecord =>
  ({ at, strategyId: 's', intentId, token: 3045, symbol: 'SBIN-EQ' }) as FillRecord;

/** A bar before the entry (its 79 000 low must not count), one split at the entry, two inside. */
const bars: PriceBars = {
  token: 3045,
  start: [T0 - MIN, T0 + 1_000, T0 + MIN, T0 + 2 * MIN, T0 + 3 * MIN + 1_000],
  open: [79_500, 80_000, 80_100, 79_800, 80_200],
  high: [79_900, 80_150, 80_400, 80_000, 81_000],
  low: [79_000, 79_950, 80_050, 79_700, 80_100],
  close: [79_950, 80_100, 80_300, 79_900, 80_900],
};

describe('exitReasonOf', () => {
  it.each([
    ['b1/tp', 'target'],
    ['b1#2/sl', 'stop'],
    ['b1/exit', 'bracket exit'],
    ['auto-eod-1795000000000:3045', 'square-off before close'],
    ['kill-1795000000000:3045', 'kill switch'],
    ['shutdown-1795000000000', 'stop of the run'],
    ['flat:3045', 'square-off'],
    ['flat#retry1:3045', 'square-off'],
    ['auto-eod-1795000000000#retry3:3045', 'square-off before close'],
    ['sell-1', 'strategy exit'],
    ['other:3045', 'strategy exit'],
  ])('%s → %s', (id, reason) => {
    expect(exitReasonOf(id, new Set(['flat']))).toBe(reason);
  });
});

describe('tradeDetails', () => {
  it('takes MAE and MFE from the bars while the trade was open, for the whole quantity', () => {
    const [d] = tradeDetails([trip({})], [fill(T0 + 3 * MIN, 'x/tp')], new Set(), [bars], 0);
    // Long from 800.00: high 804.00 → +4.00 × 10; low 797.00 → −3.00 × 10 (not 790.00).
    expect(d).toMatchObject({
      mfe: 4_000,
      mae: -3_000,
      mfePercent: 0.5,
      maePercent: -0.37,
      exitReason: 'target',
      exitIntentId: 'x/tp',
      durationMs: 3 * MIN,
    });
  });

  it('mirrors the excursions of a short, and never makes them the wrong sign', () => {
    const [d] = tradeDetails(
      [trip({ direction: 'short', exitPrice: 79_900 })],
      [fill(T0 + 3 * MIN, 'cover')],
      new Set(),
      [bars],
      0,
    );
    expect(d).toMatchObject({ mfe: 3_000, mae: -4_000, exitReason: 'strategy exit' });
    const [flat] = tradeDetails([trip({ exitPrice: 80_000 })], [], new Set(), [], 0);
    expect(flat).toMatchObject({ mfe: 0, mae: 0 });
  });

  it('counts a trade open at the end up to the end, as ended by the end of data', () => {
    const end = T0 + 10 * MIN;
    const [d] = tradeDetails(
      [trip({ closedAt: undefined, exitPrice: 0 })],
      [],
      new Set(),
      [bars],
      end,
    );
    // The bar after the (absent) exit counts: the trade was still open then (high 810.00).
    expect(d).toMatchObject({ exitReason: 'end of data', durationMs: 10 * MIN, mfe: 10_000 });
  });
});
