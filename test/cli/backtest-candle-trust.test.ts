import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Holidays } from '../../src/api/schemas/utilities.ts';
import { openBacktestData } from '../../src/backtest/candle-replay/open-backtest-data.ts';
import { TradingCalendar } from '../../src/calendar/trading-calendar.ts';
import type { CandleInstrument } from '../../src/recording/candle-recording-meta.ts';
import { CandleRecordingWriter } from '../../src/recording/candle-recording-writer.ts';
import {
  HOLIDAYS_2026,
  RELIANCE,
  SBIN,
  writeCandleFixture,
} from '../backtest/candle-replay-fixture.ts';
import { runCli } from './run-cli.ts';

const FRI_OPEN = Date.parse('2026-11-20T09:15:00+05:30');

/** A spec running the SMA example on `symbol` over the candle recording `data`. */
function spec(data: string, symbol: string): { file: string; out: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tr-candle-trust-'));
  const file = join(dir, 'spec.yaml');
  writeFileSync(
    file,
    `backtest:
  data: ${data}
  capital: 1000000
  logLevel: silent
strategies:
  - id: sma
    module: ${resolve('strategies/sma-crossover.ts')}
    params: { symbol: ${symbol}, fast: 3, slow: 8, interval: 1m, quantity: 10 }
logging: { level: silent }
`,
  );
  return { file, out: join(dir, 'out') };
}

/** A finished recording of Friday 20-11-2026: 30 SBIN bars, no bar of the others listed. */
async function recording(holidays: Holidays | null, instruments: CandleInstrument[] = [SBIN]) {
  const dir = join(mkdtempSync(join(tmpdir(), 'tr-candle-trust-data-')), 'rec');
  const writer = await CandleRecordingWriter.open(
    dir,
    {
      interval: '1m',
      from: '2026-11-20',
      to: '2026-11-20',
      instruments,
      holidays,
      source: 'import',
    },
    'extend',
  );
  const bars = Array.from({ length: 30 }, (_, k) => {
    const p = 80_000 + 5 * ((k * 7) % 11);
    return {
      start: FRI_OPEN + k * 60_000,
      open: p,
      high: p + 10,
      low: p - 10,
      close: p + 5,
      volume: 10,
    };
  });
  await writer.writeChunk(SBIN.token, '2026-11-20', '2026-11-20', bars);
  await writer.finish({});
  return dir;
}

describe('backtest over candles: gaps are loud', () => {
  it('a token the recording lists with 0 bars is missing data (exit 3)', async () => {
    const data = await recording(null, [SBIN, RELIANCE]);
    const { file, out } = spec(data, 'RELIANCE-EQ');
    const run = await runCli('backtest', '--config', file, '--out', out);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain('does not hold: 2885 (RELIANCE-EQ)');
    expect(run.stderr).toMatch(/holds 1 token\(s\): 3045 \(SBIN-EQ\)/);
  }, 60_000);

  it('a token every bar of which falls outside the calendar is missing data; allowed, the note is in the summary and report.json', async () => {
    // Holidays of 2025 only: the replay treats 2026 as closed, so every bar is skipped.
    const data = await recording({
      holidays: { '26-01-2025': 'Republic Day' },
      specialTradingDays: {},
    });
    const { file, out } = spec(data, 'SBIN-EQ');
    const run = await runCli('backtest', '--config', file, '--out', out);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain('does not hold: 3045 (SBIN-EQ)');
    const allowed = await runCli('backtest', '--config', file, '--out', out, '--allow-missing');
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toMatch(/WARNING +30 bar\(s\) fell outside every session/);
    expect(allowed.stdout).toMatch(/WARNING +every bar of token\(s\) 3045 fell outside/);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.warnings).toHaveLength(2);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('every bar of token(s) 3045');
  }, 60_000);

  it('a strategy failing on a symbol the recording’s master lacks exits 3 with its message', async () => {
    const data = join(mkdtempSync(join(tmpdir(), 'tr-candle-trust-master-')), 'friday');
    await writeCandleFixture(data, { from: '2026-11-20', to: '2026-11-20', instruments: [SBIN] });
    writeFileSync(
      join(data, 'instruments.csv'),
      'Exchange,Token,Symbol,Name,Segment,Expiry,OptionType,StrikePrice,LotSize,TickSize,PricePrecision,Multiplier,PriceMultiplier\n' +
        'NSE,3045,SBIN-EQ,STATE BANK OF INDIA,EQ,,,0,1,5,2,1,1.0\n',
    );
    const { file, out } = spec(data, 'RELIANCE-EQ');
    const run = await runCli('backtest', '--config', file, '--out', out);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stdout).toMatch(
      /WARNING +strategy sma failed: RELIANCE-EQ is not in the instrument master/,
    );
    expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')).failures).toEqual({
      sma: 'RELIANCE-EQ is not in the instrument master',
    });
  }, 60_000);

  it('a calendar the recording’s holidays cannot make names its meta.json (exit 4)', async () => {
    const data = await recording({
      holidays: { '26-01-2026': 'Republic Day' },
      specialTradingDays: { '21-11-2026': ['09:15-09:15'] },
    });
    const { file, out } = spec(data, 'SBIN-EQ');
    const run = await runCli('backtest', '--config', file, '--out', out);
    expect(run.code, run.stderr).toBe(4);
    expect(run.stderr).toContain(`${join(data, 'meta.json')}: holidays:`);
  }, 60_000);

  it('replays day bars over months (a block never spans the record file’s 49-day window)', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'tr-candle-trust-days-')), 'days');
    const writer = await CandleRecordingWriter.open(
      dir,
      {
        interval: '1d',
        from: '2026-01-01',
        to: '2026-06-30',
        instruments: [SBIN],
        holidays: HOLIDAYS_2026,
        source: 'import',
      },
      'extend',
    );
    const calendar = TradingCalendar.fromHolidays(HOLIDAYS_2026);
    const bars = [];
    for (
      let day = Date.parse('2026-01-01T00:00:00+05:30');
      day < Date.parse('2026-07-01T00:00:00+05:30');
      day += 86_400_000
    ) {
      const open = calendar.sessions(day)[0]?.start;
      if (open !== undefined)
        bars.push({
          start: open,
          open: 80_000,
          high: 80_100,
          low: 79_900,
          close: 80_050,
          volume: 1,
        });
    }
    await writer.writeChunk(SBIN.token, '2026-01-01', '2026-06-30', bars);
    await writer.finish({});
    const opened = await openBacktestData(dir);
    let quotes = 0;
    for await (const block of opened.set.blocks()) while (block.next()) quotes += 1;
    // Four a bar, and the close again at each session's end.
    expect(quotes).toBe(bars.length * 5);
  }, 60_000);
});
