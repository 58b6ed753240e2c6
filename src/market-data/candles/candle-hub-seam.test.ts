import { readFileSync } from 'node:fs';
import { filter, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Holidays } from '../../api/schemas/utilities.ts';
import { TradingCalendar } from '../../calendar/trading-calendar.ts';
import { VirtualClock } from '../../clock/virtual-clock.ts';
import type { Candle } from '../../domain/candle.ts';
import type { MarketQuote } from '../market-quote.ts';
import type { CandleHistory, CandleHistoryRequest } from './candle-history.ts';
import { CandleHub } from './candle-hub.ts';

const fixture = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/holidays-2026.json', import.meta.url), 'utf8'),
) as Holidays;
const calendar = TradingCalendar.fromHolidays(fixture);
const OPEN = Date.parse('2026-11-20T09:15:00+05:30');
const MIN = 60_000;

/** The service's 1m candles 09:15 … 09:15+n: it answers every one, even past `to`. */
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
    historical: false,
  }));

/** A hub subscribed with `history: 2` at `now`; each candle noted with the instant it came. */
function subscribeAt(now: number) {
  const requests: CandleHistoryRequest[] = [];
  // Answers at once, as the recording's history does in a backtest.
  const history: CandleHistory = {
    candles: async (r) => {
      requests.push(r);
      return rows(6);
    },
  };
  const clock = new VirtualClock(now);
  const quotes = new Subject<MarketQuote<'ohlcv'>>();
  const feed = { quote$: (t: number) => quotes.pipe(filter((q) => q.token === t)) } as never;
  const hub = new CandleHub({ feed, clock, calendar: () => calendar, history });
  const got: Array<[number, number, boolean]> = [];
  hub
    .candles$(3045, '1m', { history: 2 })
    .subscribe((c) =>
      got.push([(c.start - OPEN) / MIN, (clock.now() - OPEN) / 1_000, c.historical]),
    );
  /** A quote received at `at`, its last trade a second before. */
  const quote = (at: number): void => {
    clock.advanceTo(at);
    const q = {
      token: 3045,
      open: 0,
      high: 0,
      low: 0,
      close: 0,
      ltp: 200,
      ltt: 0,
      oi: 0,
      volume: 10,
    };
    quotes.next({ token: 3045, mode: 'ohlcv', quote: q, sourceTime: at - 1_000, receivedAt: at });
  };
  return { clock, got, requests, quote };
}

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('CandleHub: the seam between history and live', () => {
  it('fills the candle in progress at subscribing when its first quote is answered after its end', async () => {
    const h = subscribeAt(OPEN + 3 * MIN + 55_000); // 09:18:55, the 09:18 candle in progress
    await turn();
    // The first poll is answered at 09:19:02 (last trade 09:19:01): nothing live in 09:18.
    h.quote(OPEN + 4 * MIN + 2_000);
    h.quote(OPEN + 4 * MIN + 30_000);
    h.clock.advanceTo(OPEN + 5 * MIN);
    await turn();
    // [slot, seconds after the open it came, historical]: 09:18 from history, at 09:20,
    // just before the live 09:19 candle; the service's 09:19 and 09:20 rows are not repeated.
    expect(h.got).toEqual([
      [1, 235, true],
      [2, 235, true],
      [3, 300, true],
      [4, 300, false],
    ]);
    // The fill asks for the slots from the one in progress at subscribing to the live one.
    const fill = h.requests[1];
    expect(h.requests).toHaveLength(2);
    expect(fill && [fill.from, fill.to]).toEqual([OPEN + 3 * MIN, OPEN + 4 * MIN]);
  });

  it('asks nothing more when the first live candle is the one in progress at subscribing', async () => {
    const h = subscribeAt(OPEN + 3 * MIN + 30_000);
    await turn();
    h.quote(OPEN + 3 * MIN + 40_000);
    h.clock.advanceTo(OPEN + 4 * MIN);
    await turn();
    expect(h.got).toEqual([
      [1, 210, true],
      [2, 210, true],
      [3, 240, false],
    ]);
    expect(h.requests).toHaveLength(1);
  });

  it('asks nothing more when subscribed before the open', async () => {
    const h = subscribeAt(OPEN - 5 * MIN);
    await turn();
    h.quote(OPEN + 2_000);
    h.clock.advanceTo(OPEN + MIN);
    await turn();
    expect(h.got.map((g) => g[2])).toEqual([false]);
    expect(h.requests).toHaveLength(1);
  });
});
