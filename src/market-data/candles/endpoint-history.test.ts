import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CandleRequest } from '../../api/candle-request.ts';
import { InvalidResponseError } from '../../api/errors/invalid-response-error.ts';
import { type CandleRow, readCandleRows } from '../../api/schemas/candle.ts';
import type { Holidays } from '../../api/schemas/utilities.ts';
import { TradingCalendar } from '../../calendar/trading-calendar.ts';
import { VirtualClock } from '../../clock/virtual-clock.ts';
import { EndpointCandleHistory } from './endpoint-history.ts';

const fixture = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/holidays-2026.json', import.meta.url), 'utf8'),
) as Holidays;
const calendar = TradingCalendar.fromHolidays(fixture);
const ist = (s: string): number => Date.parse(`${s}+05:30`);
const DAY = 86_400_000;

describe('candle endpoint rows', () => {
  it('reads the bare array: IST times with a colon-less offset, paise, optional oi', () => {
    const rows = readCandleRows(
      'candles',
      '[["2026-11-20T09:15:00+0530",58000,58100,57900,58050,1200],["2026-11-20T09:16:00+0530",1,2,0,1,3,77]]',
    );
    expect(rows).toEqual([
      {
        time: ist('2026-11-20T09:15:00'),
        open: 58000,
        high: 58100,
        low: 57900,
        close: 58050,
        volume: 1200,
      },
      { time: ist('2026-11-20T09:16:00'), open: 1, high: 2, low: 0, close: 1, volume: 3, oi: 77 },
    ]);
    // An error envelope is not an array: read the usual way.
    expect(readCandleRows('candles', '{"status":"error","message":"x"}')).toBeUndefined();
    // Rupees where paise belong is off the documented shape.
    expect(() => readCandleRows('candles', '[["2026-11-20T09:15:00+0530",580.5,1,1,1,1]]')).toThrow(
      InvalidResponseError,
    );
  });
});

describe('EndpointCandleHistory', () => {
  it('cuts the range into chunks, paces them to its limit, and aligns rows as live candles', async () => {
    const clock = new VirtualClock(ist('2026-11-20T10:00:00'));
    const asked: Array<{ at: number; request: CandleRequest }> = [];
    const client = {
      candles: async (request: CandleRequest): Promise<CandleRow[]> => {
        asked.push({ at: clock.now(), request });
        // Every chunk answers with the same day row (as chunks sharing an edge may): kept once.
        return [
          { time: ist('2026-11-19T00:00:00'), open: 1, high: 2, low: 1, close: 2, volume: 9 },
        ];
      },
    };
    const history = new EndpointCandleHistory({
      client,
      clock,
      calendar: () => calendar,
      chunkMs: { '1d': DAY },
      requestsPerSecond: 2,
    });
    const from = ist('2026-11-17T00:00:00');
    const done = history.candles({
      token: 3045,
      interval: '1d',
      exchange: 'NSE',
      from,
      to: from + 3 * DAY,
    });
    await clock.advanceToAsync(clock.now() + 2_000);
    const candles = await done;
    expect(
      asked.map((a) => [a.at - (asked[0]?.at ?? 0), a.request.from - from, a.request.interval]),
    ).toEqual([
      [0, 0, 'day'],
      [0, DAY, 'day'],
      [1_000, 2 * DAY, 'day'],
    ]);
    expect(asked[0]?.request.exchange).toBe('NSE');
    // An equity's candles have no open interest to ask for.
    expect(asked[0]?.request.oi).toBeUndefined();
    // A day row (stamped 00:00) spans its session: 09:15 to 15:30.
    expect(candles.map((c) => [c.start, c.end, c.volume, c.historical])).toEqual([
      [ist('2026-11-19T09:15:00'), ist('2026-11-19T15:30:00'), 9, true],
    ]);
  });

  it('refuses a token whose exchange is unknown (the stream then starts cold)', async () => {
    const history = new EndpointCandleHistory({
      client: { candles: async () => [] },
      clock: new VirtualClock(0),
      calendar: () => calendar,
    });
    await expect(
      history.candles({ token: 1, interval: '1m', exchange: undefined, from: 0, to: 1 }),
    ).rejects.toThrow(/exchange of token 1 is unknown/);
  });

  it('asks for open interest for NFO and BFO tokens and keeps it on the candles', async () => {
    const asked: CandleRequest[] = [];
    const history = new EndpointCandleHistory({
      client: {
        candles: async (request: CandleRequest): Promise<CandleRow[]> => {
          asked.push(request);
          const row = { time: ist('2026-11-20T09:15:00'), open: 1, high: 2, low: 1, close: 2 };
          return [{ ...row, volume: 5, ...(request.oi === true ? { oi: 1_500 } : {}) }];
        },
      },
      clock: new VirtualClock(ist('2026-11-20T10:00:00')),
      calendar: () => calendar,
    });
    const ask = (exchange: 'NFO' | 'BFO' | 'NSE') =>
      history.candles({
        token: 51_234,
        interval: '1m',
        exchange,
        from: ist('2026-11-20T09:15:00'),
        to: ist('2026-11-20T09:16:00'),
      });
    expect((await ask('NFO')).map((c) => c.oi)).toEqual([1_500]);
    expect((await ask('BFO')).map((c) => c.oi)).toEqual([1_500]);
    expect((await ask('NSE')).map((c) => c.oi)).toEqual([undefined]);
    expect(asked.map((r) => [r.exchange, r.oi])).toEqual([
      ['NFO', true],
      ['BFO', true],
      ['NSE', undefined],
    ]);
  });
});
