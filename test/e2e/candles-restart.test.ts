import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForExit } from './helpers/child-process.ts';
import { E2eWorld, fixture } from './helpers/e2e-world.ts';
import { type LogLine, parseLog } from './helpers/json-log.ts';
import { waitForLog } from './helpers/wait-log.ts';

const HISTORY = 10;
const MINUTE = 60_000;

let world: E2eWorld;
// Built when the file's tests begin, so the shared clock's anchor is a few seconds ahead.
// At 60x one 1-minute candle is one real second.
beforeAll(() => {
  world = new E2eWorld({
    start: '2026-01-05T09:45:00+05:30',
    speed: 60,
    anchor: new Date(Date.now() + 4_000).toISOString(),
  });
});
afterAll(() => world.dispose());

interface LoggedCandle {
  start: number;
  end: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  historical: boolean;
}

const isCandle = (l: LogLine): boolean => l.msg === 'candle' && typeof l.candle === 'object';
const candlesOf = (lines: readonly string[]): LoggedCandle[] =>
  parseLog(lines)
    .filter(isCandle)
    .map((l) => l.candle as LoggedCandle);
const ist = (ms: number): string => new Date(ms + 19_800_000).toISOString().slice(11, 16);

/** Starts of candles that do not begin where the one before ended. */
function gaps(candles: readonly LoggedCandle[]): string[] {
  return candles.slice(1).flatMap((c, i) => {
    const prev = candles[i] as LoggedCandle;
    return c.start === prev.end ? [] : [`${ist(prev.end)} -> ${ist(c.start)}`];
  });
}

// How this was checked to fail (break, see it fail, restore):
// - CandleHub's history without its last candle (`.slice(-wanted - 1, -1)`): a gap at
//   the seam and a short-history warning in run 2;
// - InstrumentMasterStore ignoring today's cache: run 2 loads the master from the
//   service (origin `service`, GET /all asked twice).
// The fixture subscribes at its first quote early in a minute, when the bus is polling:
// subscribed at setup instead, a candle in progress whose first quote is answered after
// its end is in neither history nor live (a gap at the seam, seen in 2 of 3 runs at load
// ~10; reported to the lead as a CandleHub bug).
describe('e2e: candles and the instrument master across kill -9', { timeout: 90_000 }, () => {
  it('a restarted bot gets its history at once, then live candles with no gap or duplicate', async () => {
    const admin = await world.startSim();
    const config = world.writeConfig(
      world.baseConfig(
        [
          {
            id: 'candles',
            module: fixture('candle-log.ts'),
            params: { token: 3045, interval: '1m', history: HISTORY, subscribeEarlyInMinute: true },
          },
        ],
        { marketData: { intervalMs: 10_000 } },
      ),
    );
    // Run 1: what history there is, then a few live candles; kill -9.
    const run1 = await world.startBot(config);
    const isLive = (l: LogLine) => isCandle(l) && (l.candle as LoggedCandle).historical === false;
    await waitForLog(run1, isLive, HISTORY + 2, 30_000, 'live candles in run 1');
    run1.signal('SIGKILL');
    await waitForExit(run1, 10_000);
    // Run 2 on the same state dir, the same IST day.
    const run2 = await world.startBot(config);
    await waitForLog(run2, isLive, 3, 30_000, '3 live candles in run 2');
    run2.signal('SIGTERM');
    await waitForExit(run2, 20_000);

    const [c1, c2] = [candlesOf(run1.lines), candlesOf(run2.lines)];
    const log2 = parseLog(run2.lines);
    const stats = await admin.stats();
    const ctx = JSON.stringify({
      run1: c1.map((c) => [ist(c.start), c.historical, c.close]),
      run2: c2.map((c) => [ist(c.start), c.historical, c.close]),
      warnings: log2.filter((l) => l.level >= 40).map((l) => l.msg),
      routes: stats.routes,
    });
    // The simulator serves history from its own start, a few minutes before the bot's:
    // run 1 started short and said so (unless this machine took HISTORY minutes to start
    // it). Run 2 is warm: HISTORY historical candles first, then only live ones.
    const log1 = parseLog(run1.lines);
    const got1 = c1.filter((c) => c.historical).length;
    const warned1 = log1.filter((l) => l.level === 40 && l.component === 'candles');
    expect(
      warned1.map((l) => l.msg),
      ctx,
    ).toEqual(
      got1 < HISTORY
        ? [`1m candles of 3045 start short: history has ${got1} of ${HISTORY} candles`]
        : [],
    );
    expect(
      c1.slice(0, got1).every((c) => c.historical),
      ctx,
    ).toBe(true);
    expect(
      c2.map((x) => x.historical),
      ctx,
    ).toEqual([...Array(HISTORY).fill(true), ...Array(c2.length - HISTORY).fill(false)]);
    // At once: the history came in one answer of the candle endpoint (one request per
    // run), not trickled in live (a candle every real second at 60x).
    const histLines = log2.filter((l) => isCandle(l) && (l.candle as LoggedCandle).historical);
    const spread = Number(histLines.at(-1)?.time) - Number(histLines[0]?.time);
    expect(spread, ctx).toBeLessThan(500);
    expect(stats.routes.candles, ctx).toBe(2);
    for (const c of [c1, c2]) {
      // One stream with no gap or duplicate, the seam between history and live included
      // (a quiet minute would be a gap: the simulator trades in every minute).
      expect(gaps(c), ctx).toEqual([]);
      expect(
        c.every((x) => x.end - x.start === MINUTE && x.low <= x.open && x.open <= x.high),
        ctx,
      ).toBe(true);
    }
    // Run 2's history is the candles before its start, so it covers minutes run 1 saw
    // live: where they overlap, the endpoint's candle (every simulator step) holds the
    // prices polled in that minute (a poll every 10 market seconds sees only some of
    // them, so high and low may fall short, never beyond). A candle shifted by a minute
    // or built across a boundary would break this.
    const hist2 = new Map(c2.filter((c) => c.historical).map((c) => [c.start, c]));
    const overlap = c1.filter((c) => !c.historical && hist2.has(c.start));
    // The restart took under HISTORY market minutes (HISTORY real seconds at 60x).
    expect(overlap.length, ctx).toBeGreaterThan(0);
    const outside = overlap.filter((l) => {
      const h = hist2.get(l.start) as LoggedCandle;
      return l.low < h.low || l.high > h.high;
    });
    expect(outside, ctx).toEqual([]);
    // Run 2 did not start cold or short.
    expect(
      log2.filter((l) => l.level >= 40 && l.component === 'candles'),
      ctx,
    ).toEqual([]);
    // The instrument master cached in state.dir served the restart the same IST day: the
    // simulator's /all was asked once, by run 1.
    const master2 = log2.find((l) => l.msg === 'instrument master loaded');
    expect(master2?.origin, ctx).toBe('cache');
    expect(stats.routes.instrumentMaster, ctx).toBe(1);
  });
});
