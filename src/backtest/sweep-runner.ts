import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { formatInr } from '../domain/money.ts';
import type { BacktestSpec, RankMetric } from './backtest-spec.ts';
import type { Summary } from './metrics.ts';
import { sweepGrid } from './sweep-grid.ts';
import { sweepHtml } from './sweep-html.ts';
import type { SweepExecutor, SweepJob, SweepResult } from './sweep-protocol.ts';
import { ThreadPoolExecutor } from './thread-pool-executor.ts';

/** Rank metrics in paise: shown as rupees in the table. */
const MONEY_METRICS: ReadonlySet<RankMetric> = new Set<RankMetric>(['netPnl', 'maxDrawdown']);

/** Options of {@link runSweep}. */
export interface SweepOptions {
  /** Worker threads; default one per core. */
  workers?: number;
  /** Where the jobs run; default a {@link ThreadPoolExecutor}. */
  executor?: SweepExecutor;
  /** Folder for `sweep.json`. */
  out: string;
  onProgress?: (done: number) => void;
  /** Runs go on when strategies subscribe to tokens the data lacks (each run's summary says). */
  allowMissing?: boolean;
  /** Where the runs' log lines go (default stdout), and whether that is a terminal. */
  onLog?: (text: string) => void;
  logTTY?: boolean;
}

/** A ranked sweep. */
export interface RankedSweep {
  rankBy: RankMetric;
  /** Best first; failed jobs last. */
  results: SweepResult[];
  /** The ranking as a text table. */
  table: string;
  /** Path of `sweep.json`. */
  file: string;
  /** Path of `sweep.html` beside it: sortable table and heatmap, self-contained. */
  html: string;
}

/**
 * Runs the spec's parameter grid on an executor and ranks the results by the spec's
 * metric (drawdown: smallest first; the others: largest first).
 *
 * @example
 * ```ts
 * const ranked = await runSweep(spec, { out: 'backtests/out/sma-crossover' });
 * console.log(ranked.table);
 * ```
 */
export async function runSweep(spec: BacktestSpec, options: SweepOptions): Promise<RankedSweep> {
  const sweep = spec.backtest.sweep;
  if (sweep === undefined) throw new Error(`${spec.file}: no backtest.sweep section`);
  const grid = sweepGrid(sweep.params);
  const jobs: SweepJob[] = grid.map((params, id) => ({
    type: 'job',
    id,
    specFile: resolve(spec.file),
    params,
    ...(options.allowMissing === true ? { allowMissing: true } : {}),
    ...(options.logTTY === true ? { logTTY: true } : {}),
  }));
  const executor =
    options.executor ??
    new ThreadPoolExecutor(options.workers ?? sweep.workers ?? undefined, options.onLog);
  const results: SweepResult[] = [];
  for await (const r of executor.run(jobs)) {
    results.push(r);
    options.onProgress?.(results.length / jobs.length);
  }
  const ranked = rankResults(results, sweep.rankBy);
  await mkdir(options.out, { recursive: true });
  const file = join(options.out, 'sweep.json');
  await writeFile(
    file,
    `${JSON.stringify({ spec: spec.name, rankBy: sweep.rankBy, results: ranked }, null, 1)}\n`,
  );
  const html = join(options.out, 'sweep.html');
  await writeFile(html, sweepHtml({ spec: spec.name, rankBy: sweep.rankBy, results: ranked }));
  return {
    rankBy: sweep.rankBy,
    results: ranked,
    table: sweepTable(ranked, sweep.rankBy),
    file,
    html,
  };
}

/**
 * Sorts results best first by `metric`; ties by job id, failures last. A run that had
 * rejected or denied orders did not trade as its params asked: every clean run ranks
 * above it, whatever its metric. A run with no closed trade has no profit factor, win
 * rate or Sharpe worth the name: it ranks below every run (of its kind) that traded. A
 * profit factor of `null` with trades means no losing trade.
 */
export function rankResults(results: readonly SweepResult[], metric: RankMetric): SweepResult[] {
  const needsTrades = metric === 'profitFactor' || metric === 'winRate' || metric === 'sharpe';
  const score = (s: Summary): number => {
    if (needsTrades && s.trades === 0) return Number.NEGATIVE_INFINITY;
    const v = s[metric];
    const n = v === null ? Number.POSITIVE_INFINITY : v;
    return metric === 'maxDrawdown' ? -n : n;
  };
  return [...results].sort((a, b) => {
    if (!a.ok || !b.ok) return a.ok === b.ok ? a.id - b.id : a.ok ? -1 : 1;
    const ra = hadRejections(a.summary);
    const rb = hadRejections(b.summary);
    if (ra !== rb) return ra ? 1 : -1;
    const sa = score(a.summary);
    const sb = score(b.summary);
    return sa === sb ? a.id - b.id : sb > sa ? 1 : -1;
  });
}

/** Whether a run had any rejected or denied order (older results lack the counts). */
function hadRejections(s: Summary): boolean {
  return (s.rejected ?? 0) + (s.denied ?? 0) > 0;
}

/**
 * The ranking as text lines: rank, the metric (money in ₹), net PnL, trades, drawdown,
 * the params, and a mark on runs that had rejections.
 *
 * @example
 * ```ts
 * process.stdout.write(sweepTable(rankResults(results, 'netPnl'), 'netPnl'));
 * ```
 */
export function sweepTable(results: readonly SweepResult[], metric: RankMetric): string {
  const lines = results.map((r, i) => {
    const params = Object.entries(r.params)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(' ');
    if (!r.ok) return `${String(i + 1).padStart(3)}  failed: ${r.error}  ${params}`;
    const s = r.summary;
    // Money metrics in rupees like the other columns (the summary keeps paise).
    const value = MONEY_METRICS.has(metric) ? formatInr(s[metric] ?? 0) : String(s[metric]);
    const rejected = hadRejections(s)
      ? `  REJECTIONS ${s.rejected} rejected, ${s.denied} denied`
      : '';
    const missing =
      r.missingTokens === undefined || r.missingTokens.length === 0
        ? ''
        : `  MISSING DATA for ${r.missingTokens.join(', ')}`;
    return `${String(i + 1).padStart(3)}  ${metric}=${value.padEnd(14)} net ${formatInr(s.netPnl).padEnd(14)} trades ${String(s.trades).padEnd(4)} dd ${formatInr(s.maxDrawdown).padEnd(12)} ${params}${rejected}${missing}`;
  });
  const marked = results.filter((r) => r.ok && hadRejections(r.summary)).length;
  const note =
    marked === 0
      ? ''
      : `${marked} run(s) had rejected or denied orders: ranked after the clean runs\n`;
  return `rank by ${metric}:\n${lines.join('\n')}\n${note}`;
}
