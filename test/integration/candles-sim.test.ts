import { afterEach, describe, expect, it } from 'vitest';
import { TiqsClient } from '../../src/api/tiqs-client.ts';
import { simExchangeSource } from '../../src/backtest/sim-exchange-source.ts';
import { TradingCalendar } from '../../src/calendar/trading-calendar.ts';
import { VirtualClock } from '../../src/clock/virtual-clock.ts';
import type { Candle, CandleInterval } from '../../src/domain/candle.ts';
import { CandleHub } from '../../src/market-data/candles/candle-hub.ts';
import { EndpointCandleHistory } from '../../src/market-data/candles/endpoint-history.ts';
import { MarketDataBus } from '../../src/market-data/market-data-bus.ts';
import { memoryLogger } from '../../src/market-data/testing/fake-quote-source.ts';
import { type RunningSimulator, startSimulator } from '../../src/sim/index.ts';
import { SIM_HOLIDAYS } from '../../src/sim/sim-holidays.ts';

const ist = (s: string): number => Date.parse(`${s}+05:30`);
const START = ist('2026-11-20T09:14:00');
const NOW = ist('2026-11-20T10:20:30');
const calendar = TradingCalendar.fromHolidays(SIM_HOLIDAYS);
const SBIN = 3045;
const NIFTY = 26000;

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const strip = ({ historical: _, ...c }: Candle) => c;

describe('candles from polled quotes agree with the simulator candle endpoint', () => {
  it('gives the same 1m, 5m and 1h candles of an equity and an index, paise and volume', async () => {
    const clock = new VirtualClock(START);
    sim = await startSimulator({ clock, seed: 5 });
    // Polled in process each second on the virtual clock: every market step is seen.
    const bus = new MarketDataBus({
      source: simExchangeSource(sim.exchange),
      clock,
      sessions: calendar,
      logger: memoryLogger('warn').logger,
      intervalMs: 1_000,
    });
    const hub = new CandleHub({ feed: bus, clock, calendar: () => calendar });
    const live = new Map<string, Candle[]>();
    const intervals: CandleInterval[] = ['1m', '5m', '1h'];
    for (const token of [SBIN, NIFTY]) {
      for (const interval of intervals) {
        const list: Candle[] = [];
        live.set(`${token}:${interval}`, list);
        hub.candles$(token, interval).subscribe((c) => list.push(c));
      }
    }
    await clock.advanceToAsync(NOW);
    bus.close();

    // The same range from the endpoint, over HTTP (real time: loopback I/O only).
    const client = new TiqsClient({ baseUrl: sim.url, appId: 'sim-app', token: 'sim-token' });
    const history = new EndpointCandleHistory({
      client,
      clock: new VirtualClock(0),
      calendar: () => calendar,
    });
    for (const token of [SBIN, NIFTY]) {
      for (const interval of intervals) {
        const got = live.get(`${token}:${interval}`) ?? [];
        const served = await history.candles({
          token,
          interval,
          exchange: 'NSE',
          from: ist('2026-11-20T09:15:00'),
          to: NOW,
        });
        const completed = served.filter((c) => c.end <= NOW);
        expect(completed.length, `${token} ${interval}`).toBeGreaterThan(0);
        expect(got.map(strip), `${token} ${interval}`).toEqual(completed.map(strip));
      }
    }
    const minutes = live.get(`${SBIN}:1m`) ?? [];
    expect(minutes).toHaveLength(65);
    expect(minutes.every((c) => c.volume > 0 && Number.isInteger(c.open))).toBe(true);
    // The hour candle is 09:15–10:15, aligned to the open.
    expect(live.get(`${SBIN}:1h`)?.map((c) => [c.start, c.end])).toEqual([
      [ist('2026-11-20T09:15:00'), ist('2026-11-20T10:15:00')],
    ]);
  });
});
