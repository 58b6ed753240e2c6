import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBacktestSpec } from '../../src/backtest/backtest-spec.ts';
import { runBacktest } from '../../src/backtest/run-backtest.ts';
import { DAY_MS } from '../../src/domain/ist.ts';
import { shiftRecording } from '../../src/recording/shift-recording.ts';

const SAMPLE = resolve('backtests/data/sample-day');
/** The sample day is Friday 20 November 2026; Tuesday the 24th is a holiday. */
const SHIFTS = { fri: 0, mon: 3, wed: 5 } as const;

/** IST calendar day of an instant, `YYYY-MM-DD`. */
const istDay = (at: number): string => new Date(at + 5.5 * 3_600_000).toISOString().slice(0, 10);

describe('backtest of several recordings one after the other (streamed)', () => {
  it('replays Friday, Monday and Wednesday in order, across the weekend and a holiday', async () => {
    const data = mkdtempSync(join(tmpdir(), 'tr-multi-day-'));
    for (const [name, days] of Object.entries(SHIFTS)) {
      await shiftRecording(SAMPLE, join(data, name), days * DAY_MS);
    }
    const spec = await loadBacktestSpec('backtests/sma-crossover.yaml');
    const one = await runBacktest(spec);
    const three = await runBacktest({ ...spec, backtest: { ...spec.backtest, data } });

    expect(three.summary.quoteEvents).toBe(3 * one.summary.quoteEvents);
    const days = new Set(three.fills.map((f) => istDay(f.at)));
    expect([...days].sort()).toEqual(['2026-11-20', '2026-11-23', '2026-11-25']);
    const intentDays = new Set(three.intents.map((i) => istDay(i.at)));
    for (const closed of ['2026-11-21', '2026-11-22', '2026-11-24']) {
      expect(intentDays.has(closed)).toBe(false);
    }
    // Time only goes forward, across the files.
    const times = three.fills.map((f) => f.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // Friday plays as it does alone (the later days only come after it).
    const friday = (at: number) => istDay(at) === '2026-11-20';
    const key = (i: { at: number; strategyId: string; kind: string; id: string }) =>
      [i.at, i.strategyId, i.kind, i.id].join(' ');
    const alone = one.intents.filter((i) => i.at < one.summary.endMs).map(key);
    expect(three.intents.filter((i) => friday(i.at) && i.at < one.summary.endMs).map(key)).toEqual(
      alone,
    );
  }, 120_000);
});
