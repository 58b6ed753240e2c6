import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../clock/virtual-clock.ts';
import { SimExchange } from '../sim-exchange.ts';
import { serveCandles } from './candle-route.ts';

const OPEN = Date.parse('2026-11-20T09:15:00+05:30');
const QUERY = '?from=2026-11-20T09:15:00&to=2026-11-20T09:20:00';

describe('serveCandles', () => {
  const clock = new VirtualClock(OPEN);
  const sim = new SimExchange({ clock, seed: 42 });
  clock.advanceTo(OPEN + 5 * 60_000);
  const serve = (ex: string, token: string) =>
    serveCandles(sim, [ex, token, 'min'], `/candle/${ex}/${token}/min${QUERY}`);

  it('serves an equity and an index on nse, with the oi column asked', () => {
    // 09:15 to 09:20: five complete minutes and the one in progress (starts in [from, to]).
    expect(JSON.parse(serve('nse', '3045').body)).toHaveLength(6);
    expect(JSON.parse(serve('NSE', '26000').body)).toHaveLength(6);
    const withOi = serveCandles(sim, ['nse', '3045', 'min'], `/candle/nse/3045/min${QUERY}&oi=1`);
    expect((JSON.parse(withOi.body) as unknown[][])[0]).toHaveLength(7);
  });

  it('serves the past before the simulator start: a year ago, day rows at 00:00', () => {
    const past = '?from=2025-06-02T00:00:00&to=2025-06-02T23:59:59';
    const rows = JSON.parse(
      serveCandles(sim, ['nse', '3045', 'min'], `/candle/nse/3045/min${past}`).body,
    );
    expect(rows).toHaveLength(375);
    expect(rows[0][0]).toBe('2025-06-02T09:15:00+0530');
    const days = JSON.parse(
      serveCandles(sim, ['nse', '26000', 'day'], `/candle/nse/26000/day${past}`).body,
    );
    expect(days.map((r: unknown[]) => r[0])).toEqual(['2025-06-02T00:00:00+0530']);
  });

  it('names every exchange it takes, and knows a token on its own exchange only', () => {
    expect(() => serve('mcx', '3045')).toThrow('exchange must be one of nse, nfo, bse, bfo');
    expect(() => serve('bse', '3045')).toThrow('Unknown instrument token 3045 on bse');
    expect(() => serve('nfo', '3045')).toThrow('Unknown instrument token 3045 on nfo');
    expect(() => serve('nse', '1')).toThrow('Unknown instrument token 1 on nse');
  });
});
