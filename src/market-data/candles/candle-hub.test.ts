import { readFileSync } from 'node:fs';
import { filter, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Holidays } from '../../api/schemas/utilities.ts';
import { TradingCalendar } from '../../calendar/trading-calendar.ts';
import { VirtualClock } from '../../clock/virtual-clock.ts';
import type { Candle } from '../../domain/candle.ts';
import type { HealthEvent } from '../health.ts';
import type { MarketQuote } from '../market-quote.ts';
import { memoryLogger } from '../testing/fake-quote-source.ts';
import type { CandleHistory } from './candle-history.ts';
import { CandleHub } from './candle-hub.ts';

const fixture = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/holidays-2026.json', import.meta.url), 'utf8'),
) as Holidays;
const calendar = TradingCalendar.fromHolidays(fixture);
const ist = (s: string): number => Date.parse(`${s}+05:30`);
const OPEN = ist('2026-11-20T09:15:00');
const MIN = 60_000;

/** A feed whose ohlcv quotes are pushed by hand: `trade(at, price, dayVolume)` at `at`. */
function harness(start: number, history?: CandleHistory) {
  const clock = new VirtualClock(start);
  const quotes = new Subject<MarketQuote<'ohlcv'>>();
  const { logger, lines } = memoryLogger('warn');
  const feed = {
    quote$: (token: number) => quotes.pipe(filter((q) => q.token === token)),
  } as never;
  const hub = new CandleHub({
    feed,
    clock,
    calendar: () => calendar,
    ...(history === undefined ? {} : { history }),
    logger,
  });
  /** A quote received at `at` whose last trade was at `traded` (default: `at`). */
  const trade = (at: number, price: number, dayVolume: number, token = 3045, traded = at): void => {
    clock.advanceTo(at);
    const quote = { token, open: 0, high: 0, low: 0, close: 0, ltp: price, ltt: 0, oi: 0 };
    quotes.next({
      token,
      mode: 'ohlcv',
      quote: { ...quote, volume: dayVolume },
      sourceTime: traded,
      receivedAt: at,
    });
  };
  return { clock, hub, trade, lines };
}

const brief = (c: Candle) => [
  new Date(c.start).toISOString(),
  new Date(c.end).toISOString(),
  c.open,
  c.high,
  c.low,
  c.close,
  c.volume,
  c.historical,
];

describe('CandleHub: live candles', () => {
  it('aligns to the session open, emits each candle once at its end, never the one in progress', () => {
    const h = harness(OPEN - MIN);
    const got: Array<[number, Candle]> = [];
    h.hub.candles$(3045, '5m').subscribe((c) => got.push([h.clock.now(), c]));
    h.trade(OPEN + 1_000, 100, 10);
    h.trade(OPEN + 2 * MIN, 120, 15);
    h.trade(OPEN + 4 * MIN + 59_000, 90, 40);
    h.trade(OPEN + 6 * MIN, 95, 41);
    h.clock.advanceTo(OPEN + 10 * MIN - 1);
    expect(got).toHaveLength(1);
    // Closed by the timer at 09:20, not by the 09:21 trade.
    expect(got[0]?.[0]).toBe(OPEN + 5 * MIN);
    const first = got[0]?.[1];
    expect(first && brief(first)).toEqual([
      '2026-11-20T03:45:00.000Z',
      '2026-11-20T03:50:00.000Z',
      100,
      120,
      90,
      90,
      40,
      false,
    ]);
    h.clock.advanceTo(OPEN + 10 * MIN);
    expect(got).toHaveLength(2);
    expect(got[1]?.[1].volume).toBe(1);
  });

  it('invents no candle for an interval without a trade', () => {
    const h = harness(OPEN);
    const got: Candle[] = [];
    h.hub.candles$(3045, '1m').subscribe((c) => got.push(c));
    h.trade(OPEN + 5_000, 100, 10);
    h.trade(OPEN + 3 * MIN + 5_000, 101, 12);
    h.clock.advanceTo(OPEN + 10 * MIN);
    expect(got.map((c) => (c.start - OPEN) / MIN)).toEqual([0, 3]);
    expect(got[1]?.volume).toBe(2);
  });

  it('cuts the last candle at the session close and aligns a special session to its own open', () => {
    const h = harness(ist('2026-11-20T15:00:00'));
    const got: Candle[] = [];
    h.hub.candles$(3045, '1h').subscribe((c) => got.push(c));
    h.trade(ist('2026-11-20T15:20:00'), 100, 10);
    h.trade(ist('2026-11-20T15:29:59'), 101, 12);
    // A trade after the close belongs to no session: ignored.
    h.trade(ist('2026-11-20T15:45:00'), 999, 13);
    h.clock.advanceTo(ist('2026-11-20T16:00:00'));
    expect(got.map((c) => [c.start, c.end, c.close])).toEqual([
      [ist('2026-11-20T15:15:00'), ist('2026-11-20T15:30:00'), 101],
    ]);
    // Muhurat (Sunday 2026-11-08 18:00–19:00): its own open, the day's first candle.
    const m = harness(ist('2026-11-08T17:00:00'));
    const muhurat: Candle[] = [];
    m.hub.candles$(3045, '15m').subscribe((c) => muhurat.push(c));
    m.trade(ist('2026-11-08T18:07:00'), 100, 7);
    m.clock.advanceTo(ist('2026-11-08T19:00:00'));
    expect(muhurat.map((c) => [c.start, c.end, c.volume])).toEqual([
      [ist('2026-11-08T18:00:00'), ist('2026-11-08T18:15:00'), 7],
    ]);
  });

  it('shares one aggregator among subscribers and stops it with the last one', () => {
    const h = harness(OPEN);
    const a: Candle[] = [];
    const b: Candle[] = [];
    const s1 = h.hub.candles$(3045, '1m').subscribe((c) => a.push(c));
    h.trade(OPEN + 1_000, 100, 10);
    const s2 = h.hub.candles$(3045, '1m').subscribe((c) => b.push(c));
    h.trade(OPEN + 30_000, 110, 20);
    h.clock.advanceTo(OPEN + MIN);
    // The late subscriber gets the same candle, built since the first one's start.
    expect(b).toEqual(a);
    expect(a[0]?.open).toBe(100);
    s1.unsubscribe();
    s2.unsubscribe();
  });
});

describe('CandleHub: history', () => {
  it('gives history first, then live, with no gap and no duplicate at the seam', async () => {
    const now = OPEN + 3 * MIN + 30_000;
    const rows = [0, 1, 2, 3].map((k) => ({
      token: 3045,
      interval: '1m' as const,
      start: OPEN + k * MIN,
      end: OPEN + (k + 1) * MIN,
      open: 100 + k,
      high: 100 + k,
      low: 100 + k,
      close: 100 + k,
      volume: 1,
      historical: false,
    }));
    // The service also returns the candle in progress (09:18): it must not come through.
    const history: CandleHistory = { candles: async () => rows };
    const h = harness(now, history);
    const got: Candle[] = [];
    h.hub.candles$(3045, '1m', { history: 2 }).subscribe((c) => got.push(c));
    h.trade(now + 1_000, 200, 50);
    h.clock.advanceTo(OPEN + 4 * MIN);
    expect(got).toHaveLength(0); // history still on its way: the live candle waits
    await Promise.resolve();
    await new Promise((r) => setImmediate(r));
    expect(got.map((c) => [(c.start - OPEN) / MIN, c.historical])).toEqual([
      [1, true],
      [2, true],
      [3, false],
    ]);
  });

  it('starts cold with a warning event and a log line when there is no history', async () => {
    const h = harness(OPEN + 5 * MIN);
    const warnings: HealthEvent[] = [];
    h.hub.warnings$.subscribe((w) => warnings.push(w));
    const got: Candle[] = [];
    h.hub.candles$(3045, '1m', { history: 14 }).subscribe((c) => got.push(c));
    await new Promise((r) => setImmediate(r));
    expect(warnings).toEqual([
      expect.objectContaining({
        status: 'degraded',
        token: 3045,
        reason: expect.stringMatching(/cold/),
      }),
    ]);
    expect(h.lines.some((l) => /start cold/.test(String(l.msg)))).toBe(true);
    h.trade(OPEN + 5 * MIN + 1, 100, 1);
    h.clock.advanceTo(OPEN + 6 * MIN);
    expect(got.map((c) => c.historical)).toEqual([false]);
  });
});

describe('CandleHub: the stream start', () => {
  const rows = (n: number): Candle[] =>
    Array.from({ length: n }, (_, k) => ({
      token: 3045,
      interval: '1m' as const,
      start: OPEN + k * MIN,
      end: OPEN + (k + 1) * MIN,
      open: 100 + k,
      high: 100 + k,
      low: 100 + k,
      close: 100 + k,
      volume: 1,
      historical: true,
    }));

  it('does not repeat the last historical candle live when the first quote traded before now', async () => {
    const now = OPEN + 3 * MIN + 500; // 09:18:00.5
    const h = harness(now, { candles: async () => rows(3) });
    const got: Candle[] = [];
    h.hub.candles$(3045, '1m', { history: 3 }).subscribe((c) => got.push(c));
    // The first poll answers with the service's last trade, at 09:17:59.
    h.trade(now + 200, 150, 500, 3045, OPEN + 3 * MIN - 1_000);
    await new Promise((r) => setImmediate(r));
    h.trade(OPEN + 3 * MIN + 10_000, 151, 520);
    h.clock.advanceTo(OPEN + 5 * MIN);
    expect(got.map((c) => [(c.start - OPEN) / MIN, c.historical])).toEqual([
      [0, true],
      [1, true],
      [2, true],
      [3, false],
    ]);
  });

  it("makes no live candle of yesterday's last trade when started before the open", () => {
    const h = harness(ist('2026-11-20T09:05:00'));
    const got: Candle[] = [];
    h.hub.candles$(3045, '1m').subscribe((c) => got.push(c));
    h.trade(ist('2026-11-20T09:05:00.200'), 150, 900, 3045, ist('2026-11-19T15:29:59'));
    h.clock.advanceTo(ist('2026-11-20T09:10:00'));
    expect(got).toEqual([]);
    h.trade(OPEN + 1_000, 151, 10);
    h.clock.advanceTo(OPEN + MIN);
    expect(got.map((c) => [c.start, c.close, c.historical])).toEqual([[OPEN, 151, false]]);
  });
});
