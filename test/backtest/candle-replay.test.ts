import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { backtestSectionSchema } from '../../src/backtest/backtest-spec.ts';
import {
  candleReplayNotes,
  openBacktestData,
} from '../../src/backtest/candle-replay/open-backtest-data.ts';
import { runBacktest } from '../../src/backtest/run-backtest.ts';
import { parseConfig } from '../../src/config/load-config.ts';
import type { Candle } from '../../src/domain/candle.ts';
import type { CandleBar } from '../../src/recording/candle-chunk-csv.ts';
import { CandleRecordingWriter } from '../../src/recording/candle-recording-writer.ts';
import { probeCandles } from '../fixtures/strategies/candle-replay-probe.ts';
import { HOLIDAYS_2026, RELIANCE, SBIN, writeCandleFixture } from './candle-replay-fixture.ts';

const FRI_OPEN = Date.parse('2026-11-20T09:15:00+05:30');
const MON_OPEN = Date.parse('2026-11-23T09:15:00+05:30');
const MIN = 60_000;

const shape = (c: CandleBar | Candle) => [c.start, c.open, c.high, c.low, c.close, c.volume];

/** 5m bars from 1m bars, aligned to each day's 09:15 open (a day's session is 09:15–15:30). */
function fives(bars: readonly CandleBar[]): CandleBar[] {
  const out: { -readonly [K in keyof CandleBar]: CandleBar[K] }[] = [];
  for (const b of bars) {
    const day = FRI_OPEN + Math.floor((b.start - FRI_OPEN) / 86_400_000) * 86_400_000;
    const start = day + Math.floor((b.start - day) / (5 * MIN)) * 5 * MIN;
    const last = out.at(-1);
    if (last?.start === start) {
      last.high = Math.max(last.high, b.high);
      last.low = Math.min(last.low, b.low);
      last.close = b.close;
      last.volume += b.volume;
    } else out.push({ ...b, start });
  }
  return out;
}

let data: string;
let bars: Map<number, CandleBar[]>;

async function replay(
  window: {
    from?: number;
    history?: number;
    intervals?: string[];
    tokens?: number[];
    data?: string;
  } = {},
) {
  const config = parseConfig(
    `
mode: paper
strategies:
  - id: probe
    module: ../test/fixtures/strategies/candle-replay-probe.ts
    params:
      tokens: [${(window.tokens ?? [SBIN.token, RELIANCE.token]).join(', ')}]
      history: ${window.history ?? 0}
      intervals: [${(window.intervals ?? ['1m', '5m']).join(', ')}]
logging: { level: silent, summaryIntervalSeconds: 0 }
`,
    'config/candle-replay.yaml',
    {},
  );
  return runBacktest({
    file: resolve('config/candle-replay.yaml'),
    name: 'candle-replay',
    projectDir: process.cwd(),
    config,
    backtest: backtestSectionSchema.parse({
      data: window.data ?? data,
      ...(window.from === undefined ? {} : { from: new Date(window.from).toISOString() }),
      logLevel: 'silent',
    }),
  });
}

describe('replay from candles', () => {
  beforeAll(async () => {
    data = join(mkdtempSync(join(tmpdir(), 'tr-candles-')), 'fri-mon');
    // Friday, the weekend, Monday; Tuesday 24 November 2026 is a holiday.
    bars = await writeCandleFixture(data, {
      from: '2026-11-20',
      to: '2026-11-24',
      instruments: [SBIN, RELIANCE],
    });
  });
  beforeEach(() => probeCandles().clear());

  it('gives candles$ exactly the recorded bars, and 5m candles aggregating them, across the weekend', async () => {
    const result = await replay();
    expect(result.summary.fills).toBe(0);
    for (const token of [SBIN.token, RELIANCE.token]) {
      const file = bars.get(token) ?? [];
      expect(file).toHaveLength(2 * 375);
      const minutes = probeCandles().get(`${token}:1m`) ?? [];
      expect(minutes.every((c) => !c.historical && c.end - c.start === MIN)).toBe(true);
      expect(minutes.map(shape)).toEqual(file.map(shape));
      expect((probeCandles().get(`${token}:5m`) ?? []).map(shape)).toEqual(fives(file).map(shape));
    }
    // Virtual time went from Friday's first bar to Monday's last bar's end.
    expect(result.equity.at(-1)?.at).toBe(MON_OPEN + 375 * MIN);
  });

  it('serves history: N from the candle file, across the weekend, then the live bars', async () => {
    await replay({ from: MON_OPEN + 45 * MIN, history: 10 });
    const file = bars.get(SBIN.token) ?? [];
    const at = file.findIndex((b) => b.start === MON_OPEN + 45 * MIN);
    const minutes = probeCandles().get(`${SBIN.token}:1m`) ?? [];
    expect(minutes.slice(0, 10).every((c) => c.historical)).toBe(true);
    expect(minutes.map(shape)).toEqual(file.slice(at - 10).map(shape));
    // Ten 5m candles before Monday 10:00: nine of Monday, the last of Friday.
    const five = probeCandles().get(`${SBIN.token}:5m`) ?? [];
    const expected = fives(file);
    const first = expected.findIndex((b) => b.start === MON_OPEN + 45 * MIN);
    expect(five.map(shape)).toEqual(expected.slice(first - 10).map(shape));
    expect(five[0]?.start).toBe(FRI_OPEN + 370 * MIN);
  });

  it('fills a market order decided on a candle close at the next bar’s open plus the slippage', async () => {
    const config = parseConfig(
      `
mode: paper
strategies:
  - id: probe
    module: ../test/fixtures/strategies/candle-probe.ts
    params: { token: ${SBIN.token}, history: 0 }
paper: { slippageTicks: 2 }
logging: { level: silent, summaryIntervalSeconds: 0 }
`,
      'config/candle-replay.yaml',
      {},
    );
    const result = await runBacktest({
      file: resolve('config/candle-replay.yaml'),
      name: 'candle-replay-fills',
      projectDir: process.cwd(),
      config,
      backtest: backtestSectionSchema.parse({
        data,
        to: new Date(FRI_OPEN + 60 * MIN).toISOString(),
        logLevel: 'silent',
      }),
    });
    const file = bars.get(SBIN.token) ?? [];
    // One order a 5m candle, placed at its close, 09:20 … 10:15 (the window's end); the
    // ledger notes each fill when the order tracker sees it (within the second).
    const bar = (at: number) => Math.floor(at / MIN) * MIN;
    expect(result.fills.map((f) => bar(f.at))).toEqual(
      Array.from({ length: 12 }, (_, k) => FRI_OPEN + (k + 1) * 5 * MIN),
    );
    for (const f of result.fills) {
      const open = file.find((b) => b.start === bar(f.at))?.open ?? Number.NaN;
      expect(f.price).toBe(open + (f.side === 'B' ? 10 : -10));
    }
  });

  it('takes the instrument master from instruments.csv beside the candles', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'tr-candles-master-')), 'friday');
    await writeCandleFixture(dir, { from: '2026-11-20', to: '2026-11-20', instruments: [SBIN] });
    // A symbol only this file knows: the simulator's master (the fallback) has no SBINX-EQ.
    writeFileSync(
      join(dir, 'instruments.csv'),
      'Exchange,Token,Symbol,Name,Segment,Expiry,OptionType,StrikePrice,LotSize,TickSize,PricePrecision,Multiplier,PriceMultiplier\n' +
        'NSE,3045,SBINX-EQ,STATE BANK OF INDIA,EQ,,,0,1,5,2,1,1.0\n',
    );
    const config = parseConfig(
      `
mode: paper
strategies:
  - id: sma
    module: ../strategies/sma-crossover.ts
    params: { symbol: SBINX-EQ, fast: 3, slow: 8, interval: 1m, quantity: 10 }
logging: { level: silent, summaryIntervalSeconds: 0 }
`,
      'config/candle-replay.yaml',
      {},
    );
    const result = await runBacktest({
      file: resolve('config/candle-replay.yaml'),
      name: 'candle-replay-master',
      projectDir: process.cwd(),
      config,
      backtest: backtestSectionSchema.parse({ data: dir, logLevel: 'silent' }),
    });
    expect(result.strategies).toEqual({ sma: 'stopped' });
    expect(result.fills.length).toBeGreaterThan(0);
    expect(new Set(result.fills.map((f) => f.symbol))).toEqual(new Set(['SBINX-EQ']));
  });

  it('notes an unfinished recording and bars outside every session', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'tr-candles-open-')), 'unfinished');
    const writer = await CandleRecordingWriter.open(
      dir,
      {
        interval: '1m',
        from: '2026-11-20',
        to: '2026-11-20',
        instruments: [SBIN],
        holidays: null,
        source: 'import',
      },
      'extend',
    );
    // A bar on Sunday: outside every session; the download never finished.
    const sunday = Date.parse('2026-11-22T09:15:00+05:30');
    await writer.writeChunk(SBIN.token, '2026-11-20', '2026-11-22', [
      { start: FRI_OPEN, open: 100, high: 110, low: 90, close: 105, volume: 10 },
      { start: sunday, open: 100, high: 110, low: 90, close: 105, volume: 10 },
    ]);
    const opened = await openBacktestData(dir);
    if (opened.kind !== 'candles') throw new Error('not candles');
    let quotes = 0;
    for await (const block of opened.set.blocks()) while (block.next()) quotes += 1;
    // The Friday bar's four, and its close again at 15:30 (the session's end).
    expect(quotes).toBe(5);
    expect(candleReplayNotes(opened.candles)).toEqual([
      `${dir}: the candle recording is incomplete (complete: false); rerun history to finish it`,
      "1 bar(s) fell outside every session of the recording's calendar and were not replayed",
    ]);
  });

  it('expires a resting DAY order at the session close: it never fills at the next day’s gap', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'tr-candles-gap-')), 'gap');
    const writer = await CandleRecordingWriter.open(
      dir,
      {
        interval: '1m',
        from: '2026-11-20',
        to: '2026-11-23',
        instruments: [SBIN],
        holidays: HOLIDAYS_2026,
        source: 'import',
      },
      'extend',
    );
    const day = (open: number, price: number) =>
      Array.from({ length: 375 }, (_, i) => ({
        start: open + i * MIN,
        open: price,
        high: price + 50,
        low: price - 50,
        close: price,
        volume: 100,
      }));
    // Friday at ₹1 000, Monday at ₹900: a buy limit at ₹950 placed on Friday would fill at
    // Monday's open if it outlived Friday's close.
    await writer.writeChunk(SBIN.token, '2026-11-20', '2026-11-23', [
      ...day(FRI_OPEN, 100_000),
      ...day(MON_OPEN, 90_000),
    ]);
    await writer.finish({});
    const config = parseConfig(
      `
mode: paper
strategies:
  - id: rest
    module: ../test/fixtures/strategies/candle-rest-limit.ts
logging: { level: silent, summaryIntervalSeconds: 0 }
`,
      'config/candle-replay.yaml',
      {},
    );
    const result = await runBacktest({
      file: resolve('config/candle-replay.yaml'),
      name: 'candle-replay-expiry',
      projectDir: process.cwd(),
      config,
      backtest: backtestSectionSchema.parse({ data: dir, logLevel: 'silent' }),
    });
    expect(result.intents).toHaveLength(1);
    expect(result.fills).toEqual([]);
  });

  it('replays 1h bars: the last one cut at the close, a day candle aggregating them', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'tr-candles-1h-')), 'hours');
    const writer = await CandleRecordingWriter.open(
      dir,
      {
        interval: '1h',
        from: '2026-11-20',
        to: '2026-11-20',
        instruments: [SBIN],
        holidays: HOLIDAYS_2026,
        source: 'import',
      },
      'extend',
    );
    const hours = Array.from({ length: 7 }, (_, i) => ({
      start: FRI_OPEN + i * 60 * MIN,
      open: 100_000 + i * 100,
      high: 100_500 + i * 100,
      low: 99_500 + i * 100,
      close: 100_050 + i * 100,
      volume: 1_000 + i,
    }));
    await writer.writeChunk(SBIN.token, '2026-11-20', '2026-11-20', hours);
    await writer.finish({});
    await replay({ intervals: ['1h', '1d'], tokens: [SBIN.token], data: dir });
    const got = probeCandles().get(`${SBIN.token}:1h`) ?? [];
    expect(got.map(shape)).toEqual(hours.map(shape));
    // 09:15–10:15, … 14:15–15:15, then 15:15–15:30: the session's close cuts the last.
    expect(got.map((c) => (c.end - c.start) / MIN)).toEqual([60, 60, 60, 60, 60, 60, 15]);
    expect((probeCandles().get(`${SBIN.token}:1d`) ?? []).map(shape)).toEqual([
      [FRI_OPEN, 100_000, 101_100, 99_500, 100_650, 7_021],
    ]);
  });

  it('refuses a folder mixing candle and tick recordings, naming both', async () => {
    const both = mkdtempSync(join(tmpdir(), 'tr-mixed-'));
    cpSync(data, join(both, 'candles'), { recursive: true });
    mkdirSync(join(both, 'ticks'));
    cpSync('backtests/data/sample-day/meta.json', join(both, 'ticks', 'meta.json'));
    await expect(openBacktestData(both)).rejects.toThrow(
      /candle recordings \(.*candles\) and tick recordings \(.*ticks\) cannot be replayed together/,
    );
  });
});
