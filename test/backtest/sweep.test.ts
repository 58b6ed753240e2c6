import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type BacktestSpec, loadBacktestSpec } from '../../src/backtest/backtest-spec.ts';
import { sweepGrid } from '../../src/backtest/sweep-grid.ts';
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

  it('runs the grid on worker threads and ranks by the chosen metric', async () => {
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

  it('ranks runs that had rejected or denied orders after every clean run, and marks them', () => {
    const result = (id: number, netPnl: number, rejected: number, denied: number): SweepResult =>
      ({
        type: 'result',
        id,
        ok: true,
        params: { 'a.x': id },
        summary: { trades: 3, netPnl, maxDrawdown: 150_000, rejected, denied },
        elapsedMs: 1,
      }) as unknown as SweepResult;
    const failed: SweepResult = { type: 'result', id: 4, params: {}, ok: false, error: 'boom' };
    const ranked = rankResults(
      [
        result(0, 900_000, 2, 0),
        failed,
        result(1, 100, 0, 0),
        result(2, 500, 0, 1),
        result(3, -50, 0, 0),
      ],
      'netPnl',
    );
    // Clean runs by net PnL, then runs with rejections by net PnL, then failures.
    expect(ranked.map((r) => r.id)).toEqual([1, 3, 0, 2, 4]);
    const table = sweepTable(ranked, 'netPnl');
    const lines = table.split('\n');
    expect(lines[1]).toContain('netPnl=₹1.00');
    expect(lines[1]).not.toContain('REJECTIONS');
    expect(lines[3]).toContain('netPnl=₹9,000.00');
    expect(lines[3]).toContain('REJECTIONS 2 rejected, 0 denied');
    expect(lines[3]).toContain('dd ₹1,500.00');
    expect(table).toContain('2 run(s) had rejected or denied orders');
  });
});
