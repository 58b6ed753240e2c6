import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { filter, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { memoryRecording } from '../../test/helpers/memory-recording.ts';
import type { Holidays } from '../api/schemas/utilities.ts';
import { TradingCalendar } from '../calendar/trading-calendar.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { Candle } from '../domain/candle.ts';
import { LiveCandles } from '../market-data/candles/live-candles.ts';
import type { MarketQuote } from '../market-data/market-quote.ts';
import type { Recording } from '../recording/read-recording.ts';
import { RecordWriter } from '../recording/record-writer.ts';
import type { RecordingSet } from '../recording/recording-set.ts';
import { RecordingCandleHistory } from './recording-candle-history.ts';

const fixture = JSON.parse(
  readFileSync(new URL('../../test/fixtures/holidays-2026.json', import.meta.url), 'utf8'),
) as Holidays;
const calendar = TradingCalendar.fromHolidays(fixture);
const OPEN = Date.parse('2026-11-20T09:15:00+05:30');
const MIN = 60_000;

/** A poll a second, answered 300 ms after; the last trade ~0.7 s before the answer. */
const polls = Array.from({ length: 240 }, (_, k) => {
  const receivedAt = OPEN + k * 1_000 + 300;
  const ltt = Math.floor((receivedAt - 700) / 1_000);
  return { receivedAt, ltt, price: 1_000 + (k % 7) * 3 + k, volume: 10 * (k + 1) };
});

const quoteOf = (p: (typeof polls)[number]) => ({
  token: 3045,
  open: 0,
  high: 0,
  low: 0,
  close: 0,
  ltp: p.price,
  ltt: p.ltt,
  oi: 0,
  volume: p.volume,
});

const META = {
  format: 'tiqs-runner-recording' as const,
  version: 1 as const,
  quoteFile: 'quotes.bin',
  start: '',
  end: '',
  holidays: { holidays: {}, specialTradingDays: {} },
  chainSymbols: [],
  chains: [],
};

/**
 * Two days as a backtest opens them: Thursday's quote file is missing (reading it
 * fails), Friday's holds {@link polls} gzip'd.
 */
function twoDays(): RecordingSet {
  const dir = mkdtempSync(join(tmpdir(), 'tr-rch-'));
  const friday = join(dir, 'fri.bin.gz');
  writeFileSync(friday, gzipSync(recording().bytes));
  const part = (file: string, startMs: number, endMs: number) => ({
    dir,
    file,
    meta: { ...META, startMs, endMs, records: 1 },
  });
  const parts = [
    part(join(dir, 'missing.bin.gz'), OPEN - 86_400_000, OPEN - 86_400_000 + 375 * MIN),
    part(friday, OPEN, OPEN + 4 * MIN),
  ];
  return {
    dir,
    meta: { ...META, startMs: OPEN - 86_400_000, endMs: OPEN + 4 * MIN, records: 2 },
    parts,
    blocks: () => {
      throw new Error('RecordingCandleHistory must not stream the recording');
    },
  };
}

function recording(): Recording {
  const w = new RecordWriter(OPEN - MIN);
  for (const p of polls) w.quote('ohlcv', quoteOf(p), p.receivedAt);
  return memoryRecording(w, { startMs: OPEN, endMs: OPEN + 4 * MIN, records: polls.length });
}

/** The candles paper builds live from the same quotes, received at their instants. */
function liveCandles(): Candle[] {
  const clock = new VirtualClock(OPEN - 1_000);
  const quotes = new Subject<MarketQuote<'ohlcv'>>();
  const feed = { quote$: (t: number) => quotes.pipe(filter((q) => q.token === t)) } as never;
  const out: Candle[] = [];
  new LiveCandles(feed, clock, () => calendar).stream(3045, '1m').subscribe((c) => out.push(c));
  for (const p of polls) {
    clock.advanceTo(p.receivedAt);
    const quote = quoteOf(p);
    quotes.next({
      token: 3045,
      mode: 'ohlcv',
      quote,
      sourceTime: p.ltt * 1_000,
      receivedAt: p.receivedAt,
    });
  }
  clock.advanceTo(OPEN + 4 * MIN);
  return out;
}

describe('RecordingCandleHistory', () => {
  it('closes a candle when a quote is received after its end, as the live timer does', async () => {
    const live = liveCandles();
    expect(live).toHaveLength(4);
    const history = new RecordingCandleHistory(recording());
    const got = await history.candles({
      token: 3045,
      interval: '1m',
      exchange: 'NSE',
      from: OPEN,
      to: OPEN + 4 * MIN,
      calendar,
    });
    expect(got).toEqual(live.map((c) => ({ ...c, historical: true })));
  });

  it('reads nothing until asked, then only the recordings of the look-back day, up to now', async () => {
    // Built without reading: Thursday's missing file would throw.
    const history = new RecordingCandleHistory(twoDays());
    const ask = (from: number, to: number) =>
      history.candles({ token: 3045, interval: '1m', exchange: 'NSE', from, to, calendar });
    // Asked at 09:17:30 (a candles$ subscribed late in the window): up to then, not before.
    const early = await ask(OPEN, OPEN + 2 * MIN + 30_000);
    expect(early.map((c) => (c.start - OPEN) / MIN)).toEqual([0, 1]);
    const later = await ask(OPEN + MIN, OPEN + 4 * MIN);
    expect(later.map((c) => (c.start - OPEN) / MIN)).toEqual([1, 2, 3]);
    expect(later[0]).toEqual(early[1]);
    // Another token: no candles. A look-back into Thursday reads Thursday's file.
    expect(
      await history.candles({
        token: 2885,
        interval: '1m',
        exchange: 'NSE',
        from: OPEN,
        to: OPEN + 4 * MIN,
        calendar,
      }),
    ).toEqual([]);
    await expect(ask(OPEN - 86_400_000 + 370 * MIN, OPEN + 2 * MIN)).rejects.toThrow(
      /missing\.bin\.gz: cannot read the quote file/,
    );
  });
});
