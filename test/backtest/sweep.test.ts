import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type BacktestSpec, loadBacktestSpec } from '../../src/backtest/backtest-spec.ts';
import { sweepGrid } from '../../src/backtest/sweep-grid.ts';
import { labelSweepLog } from '../../src/backtest/sweep-log-label.ts';
import { SweepMissingDataError } from '../../src/backtest/sweep-missing.ts';
import type { SweepExecutor, SweepJob, SweepResult } from '../../src/backtest/sweep-protocol.ts';
import { rankResults, runSweep, sweepTable } from '../../src/backtest/sweep-runner.ts';

describe('parameter sweeps', () => {
  it('builds the grid in a stable order', () => {
    expect(sweepGrid({ 'b.y': [1, 2], 'a.x': ['p', 'q'] })).toEqual([
      { 'a.x': 'p', 'b.y': 1 },
      { 'a.x': 'p', 'b.y': 2 },
      { 'a.x': 'q', 'b.y': 1 },
      { 'a.x': 'q', 'b.y': 2 },
    ]);
  });

  it('runs the grid on worker processes and ranks by the chosen metric', async () => {
    const spec = await loadBacktestSpec('backtests/opening-range-breakout.yaml');
    const short: BacktestSpec = {
      ...spec,
      backtest: {
        ...spec.backtest,
        to: '2026-11-20T11:00:00+05:30',
        sweep: { rankBy: 'netPnl', params: { 'orb.rangeMinutes': [5, 15] }, workers: 2 },
      },
    };
    // Workers load the spec from its file, so the test's window goes in a spec file.
    const dir = mkdtempSync(join(tmpdir(), 'tr-sweep-'));
    const specFile = join(dir, 'orb.yaml');
    const text = readFileSync('backtests/opening-range-breakout.yaml', 'utf8')
      .replace('data: data/sample-day', `data: ${join(process.cwd(), 'backtests/data/sample-day')}`)
      .replace('capital: 1000000', 'capital: 1000000\n  to: "2026-11-20T11:00:00+05:30"')
      .replace(/module: \.\.\/strategies\//, `module: ${process.cwd()}/strategies/`)
      .replace('[5, 15, 30]', '[5, 15]');
    writeFileSync(specFile, text);
    const ranked = await runSweep({ ...short, file: specFile }, { out: dir, workers: 2 });
    expect(ranked.results).toHaveLength(2);
    expect(ranked.results.every((r) => r.ok)).toBe(true);
    const nets = ranked.results.map((r) => (r.ok ? r.summary.netPnl : Number.NaN));
    expect(nets[0]).toBeGreaterThanOrEqual(nets[1] ?? Number.NaN);
    expect(ranked.table).toMatch(/rank by netPnl/);
    expect(JSON.parse(readFileSync(ranked.file, 'utf8')).results).toHaveLength(2);
    // sweep.html beside it: both runs in the table, the data for the heatmap inlined.
    const html = readFileSync(ranked.html, 'utf8');
    expect(ranked.html).toBe(join(dir, 'sweep.html'));
    expect(html.match(/<tr data-id="\d+"/g)).toHaveLength(2);
    expect(html).toContain('orb.rangeMinutes');
    expect(html).not.toMatch(/<script src=|<link /);
  });

  it('speaks plain JSON messages, so any executor (a queue, later) can run the jobs', async () => {
    const jobs: SweepJob[] = [
      { type: 'job', id: 0, specFile: '/x.yaml', params: { 'a.x': 1 } },
      { type: 'job', id: 1, specFile: '/x.yaml', params: { 'a.x': 2 } },
    ];
    // A stand-in for a remote runner: messages cross a JSON boundary both ways.
    const overTheWire: SweepExecutor = {
      async *run(js) {
        for (const wire of js.map((j) => JSON.stringify(j)).reverse()) {
          const job = JSON.parse(wire) as SweepJob;
          const result: SweepResult = {
            type: 'result',
            id: job.id,
            params: job.params,
            ok: false,
            error: 'not run',
          };
          yield JSON.parse(JSON.stringify(result)) as SweepResult;
        }
      },
    };
    const seen: SweepResult[] = [];
    for await (const r of overTheWire.run(jobs)) seen.push(r);
    expect(rankResults(seen, 'sharpe').map((r) => r.id)).toEqual([0, 1]);
  });

  it('ranks a run that never traded below every run that did', () => {
    const result = (id: number, trades: number, profitFactor: number | null): SweepResult =>
      ({
        id,
        ok: true,
        params: {},
        summary: { trades, profitFactor, winRate: 0, sharpe: 0 },
      }) as unknown as SweepResult;
    const ranked = rankResults(
      [result(0, 0, null), result(1, 4, 3), result(2, 2, null)],
      'profitFactor',
    );
    // No losing trade (null with trades) is best; no trade at all is last.
    expect(ranked.map((r) => r.id)).toEqual([2, 1, 0]);
  });

  it('ranks runs with venue or engine rejections after the others; denials are shown, not demoted', () => {
    const ranked = rankResults(
      [
        result(0, 900_000, 2, 0),
        FAILED,
        result(1, 100, 0, 0),
        result(2, 500, 0, 1),
        result(3, -50, 0, 0),
      ],
      'netPnl',
    );
    // Runs without rejections by net PnL (the late-day denial keeps its place), then the
    // rejected run, then failures.
    expect(ranked.map((r) => r.id)).toEqual([2, 1, 3, 0, 4]);
    const table = sweepTable(ranked, 'netPnl');
    const lines = table.split('\n');
    expect(lines[1]).toContain('netPnl=₹5.00');
    expect(lines[1]).toContain('denied 1');
    expect(lines[1]).not.toContain('REJECTIONS');
    expect(lines[4]).toContain('netPnl=₹9,000.00');
    expect(lines[4]).toContain('REJECTIONS 2');
    expect(lines[4]).toContain('dd ₹1,500.00');
    expect(table).toContain(
      '1 run(s) had orders rejected by the venue or the engine: ranked after the other 3',
    );
  });

  it('never says "ranked after" when every run is marked (the bundled example: a denial in each)', () => {
    const allDenied = rankResults([result(0, 100, 0, 1), result(1, 300, 0, 1)], 'netPnl');
    expect(allDenied.map((r) => r.id)).toEqual([1, 0]);
    expect(sweepTable(allDenied, 'netPnl')).not.toMatch(/ranked after|REJECTIONS/);
    const allRejected = sweepTable(
      rankResults([result(0, 100, 1, 0), result(1, 300, 2, 0)], 'netPnl'),
      'netPnl',
    );
    expect(allRejected).toContain(
      'all 2 run(s) had orders rejected by the venue or the engine: none to rank them after',
    );
    expect(allRejected).not.toContain('ranked after');
  });

  it('ranks runs that lacked data (--allow-missing) after complete ones, naming the symbols', () => {
    const lacking = {
      ...result(0, 900_000, 0, 0),
      missing: [{ token: 1594, symbol: 'INFY-EQ' }],
    } as SweepResult;
    const ranked = rankResults([lacking, result(1, 100, 1, 0), result(2, 50, 0, 0)], 'netPnl');
    expect(ranked.map((r) => r.id)).toEqual([2, 1, 0]);
    const table = sweepTable(ranked, 'netPnl');
    expect(table.split('\n')[3]).toContain('MISSING DATA for 1594 (INFY-EQ)');
    expect(table).toContain(
      '1 run(s) lacked data for tokens their strategies follow: ranked after the other 2',
    );
  });

  it('writes nothing and names every run and token when runs lacked data', async () => {
    const out = mkdtempSync(join(tmpdir(), 'tr-sweep-missing-'));
    writeFileSync(join(out, 'sweep.json'), 'an earlier good sweep\n');
    const holds =
      'the data (ticks, 2026-11-20 09:13 → 2026-11-20 15:31 IST, 24768 records) holds 1 token(s): 3045 (SBIN-EQ)';
    const answers: SweepResult[] = [
      { ...result(0, 10, 0, 0), params: { 'x.symbol': 'SBIN-EQ' } },
      missingRun(1, 'INFY-EQ', 1594, holds),
      missingRun(2, 'TCS-EQ', 11536, holds),
    ];
    const executor: SweepExecutor = {
      async *run() {
        yield* answers;
      },
    };
    const spec = {
      file: join(out, 'spec.yaml'),
      name: 'gaps',
      backtest: {
        sweep: { rankBy: 'netPnl', params: { 'x.symbol': ['SBIN-EQ', 'INFY-EQ', 'TCS-EQ'] } },
      },
    } as unknown as BacktestSpec;
    const error = await runSweep(spec, { out, executor }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SweepMissingDataError);
    const text = (error as Error).message;
    expect(text).toContain(
      '2 of 3 sweep run(s) stopped: strategies subscribe to 2 token(s) the backtest data does not hold: 1594 (INFY-EQ), 11536 (TCS-EQ)',
    );
    expect(text).toContain('  #1 x.symbol=INFY-EQ: 1594 (INFY-EQ)');
    expect(text).toContain('  #2 x.symbol=TCS-EQ: 11536 (TCS-EQ)');
    expect(text).toContain(holds);
    expect(readFileSync(join(out, 'sweep.json'), 'utf8')).toBe('an earlier good sweep\n');
    expect(existsSync(join(out, 'sweep.html'))).toBe(false);
  });

  it("labels each run's log lines with its id and params; JSON lines get a sweepRun key", () => {
    const pretty = labelSweepLog(
      '── 2026-11-20 Fri IST ──\n09:36:01 IST  sma  BUY 100 SBIN-EQ @ ₹798.60 filled\n',
      3,
      { 'sma.fast': 5, 'sma.slow': 13 },
    );
    expect(pretty).toBe(
      '#3 sma.fast=5 sma.slow=13 │ ── 2026-11-20 Fri IST ──\n#3 sma.fast=5 sma.slow=13 │ 09:36:01 IST  sma  BUY 100 SBIN-EQ @ ₹798.60 filled\n',
    );
    const json = labelSweepLog('{"level":30,"msg":"x"}\n', 2, { 'sma.fast': 5 });
    expect(JSON.parse(json)).toEqual({ sweepRun: 2, level: 30, msg: 'x' });
  });
});

/** A finished run with its net PnL and its rejected and denied counts. */
function result(id: number, netPnl: number, rejected: number, denied: number): SweepResult {
  return {
    type: 'result',
    id,
    ok: true,
    params: { 'a.x': id },
    summary: { trades: 3, netPnl, maxDrawdown: 150_000, rejected, denied },
    elapsedMs: 1,
  } as unknown as SweepResult;
}

const FAILED: SweepResult = { type: 'result', id: 4, params: {}, ok: false, error: 'boom' };

/** A run that stopped because the data lacks `token`, as the worker answers it. */
function missingRun(id: number, symbol: string, token: number, holds: string): SweepResult {
  return {
    type: 'result',
    id,
    params: { 'x.symbol': symbol },
    ok: false,
    reason: 'missing-data',
    missing: [{ token, symbol }],
    error: `strategies subscribe to 1 token(s) the backtest data does not hold: ${token} (${symbol})\n${holds}`,
  };
}
