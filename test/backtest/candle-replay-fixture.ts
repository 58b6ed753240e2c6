import { readFileSync } from 'node:fs';
import type { Holidays } from '../../src/api/schemas/utilities.ts';
import { TradingCalendar } from '../../src/calendar/trading-calendar.ts';
import { DAY_MS, toIstIso } from '../../src/domain/ist.ts';
import type { CandleBar } from '../../src/recording/candle-chunk-csv.ts';
import type { CandleInstrument } from '../../src/recording/candle-recording-meta.ts';
import { CandleRecordingWriter } from '../../src/recording/candle-recording-writer.ts';

/** The calendar the fixtures use (the 2026 holidays the other tests use). */
export const HOLIDAYS_2026 = JSON.parse(
  readFileSync(new URL('../fixtures/holidays-2026.json', import.meta.url), 'utf8'),
) as Holidays;

export const SBIN: CandleInstrument = {
  token: 3045,
  exchange: 'NSE',
  symbol: 'SBIN-EQ',
  tickSize: 5,
  lotSize: 1,
};
export const RELIANCE: CandleInstrument = {
  token: 2885,
  exchange: 'NSE',
  symbol: 'RELIANCE-EQ',
  tickSize: 5,
  lotSize: 1,
};

/** A small seeded generator (mulberry32): the same bars on every machine. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Writes a candle recording of seeded random-walk 1m bars for `instruments`, every
 * session slot of the 2026 calendar from `from` to `to` (IST dates), one chunk a month,
 * through the recording's own writer. Returns the bars per token, for comparison.
 */
export async function writeCandleFixture(
  dir: string,
  options: { from: string; to: string; instruments: CandleInstrument[]; seed?: number },
): Promise<Map<number, CandleBar[]>> {
  const calendar = TradingCalendar.fromHolidays(HOLIDAYS_2026);
  const writer = await CandleRecordingWriter.open(
    dir,
    {
      interval: '1m',
      from: options.from,
      to: options.to,
      instruments: options.instruments,
      holidays: HOLIDAYS_2026,
      source: 'simulator',
    },
    'resume',
  );
  const all = new Map<number, CandleBar[]>();
  const first = Date.parse(`${options.from}T00:00:00+05:30`);
  const last = Date.parse(`${options.to}T00:00:00+05:30`);
  for (const [n, inst] of options.instruments.entries()) {
    const next = random((options.seed ?? 7) * 1_000 + n);
    let price = 80_000 + n * 60_000;
    const bars: CandleBar[] = [];
    const byMonth = new Map<string, CandleBar[]>();
    for (let day = first; day <= last; day += DAY_MS) {
      // Overnight gap: the day opens up to 1% away from the last close.
      price = Math.max(1_000, Math.round((price * (1 + (next() - 0.5) * 0.02)) / 5) * 5);
      for (const session of calendar.sessions(day)) {
        for (let start = session.start; start < session.end; start += 60_000) {
          // Bars open a few ticks from the last close, as real minutes do.
          const open = Math.max(1_000, price + 5 * (Math.floor(next() * 5) - 2));
          const close = Math.max(1_000, Math.round((open * (1 + (next() - 0.5) * 0.004)) / 5) * 5);
          const high = Math.max(open, close) + 5 * Math.floor(next() * 8);
          const low = Math.min(open, close) - 5 * Math.floor(next() * 8);
          const bar = { start, open, high, low, close, volume: 100 + Math.floor(next() * 5_000) };
          bars.push(bar);
          const month = toIstIso(start).slice(0, 7);
          const list = byMonth.get(month);
          if (list === undefined) byMonth.set(month, [bar]);
          else list.push(bar);
          price = close;
        }
      }
    }
    for (const [month, monthBars] of byMonth) {
      const lastDay = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0));
      const to = `${month}-${String(lastDay.getUTCDate()).padStart(2, '0')}`;
      const from = `${month}-01` > options.from ? `${month}-01` : options.from;
      await writer.writeChunk(inst.token, from, to < options.to ? to : options.to, monthBars);
    }
    all.set(inst.token, bars);
  }
  await writer.finish({});
  return all;
}
