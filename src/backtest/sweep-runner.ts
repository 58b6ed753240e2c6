import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { formatInr } from '../domain/money.ts';
import type { BacktestSpec, RankMetric } from './backtest-spec.ts';
import type { Summary } from './metrics.ts';
import { PoolExecutor } from './pool-executor.ts';
import { ProcessPool } from './process-pool.ts';
import { sweepGrid } from './sweep-grid.ts';
import { sweepHtml } from './sweep-html.ts';
import { labelSweepLog } from './sweep-log-label.ts';
import { SweepMissingDataError } from './sweep-missing.ts';
import type { SweepExecutor, SweepJob, SweepResult } from './sweep-protocol.ts';
import { ThreadPool } from './thread-pool.ts';

/** Rank metrics in paise: shown as rupees in the table. */
const MONEY_METRICS: ReadonlySet<RankMetric> = new Set<RankMetric>(['netPnl', 'maxDrawdown']);

/** Options of {@link runSweep}. */
export interface SweepOptions {
  /** Workers; default one per core. */
  workers?: number;
  /**
   * What the workers are: child processes (default: they share nothing but the cores, and
   * a crash takes one run with it) or worker threads of this process (less memory).
   */
  pool?: 'processes' | 'threads';
  /** Where the jobs run; default a {@link PoolExecutor} on {@link SweepOptions.pool}. */
  executor?: SweepExecutor;
  /** Folder for `sweep.json`. */
  out: string;
  onProgress?: (done: number) => void;
  /** Runs go on when strategies subscribe to tokens the data lacks (each run's summary says). */
  allowMissing?: boolean;
  /**
   * Where the runs' log lines go (default stdout), each labelled with its run (`#3
   * sma.fast=5 │ …`, or `"sweepRun":3` in a JSON line), and whether that is a terminal.
   */
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
  // Parallel runs' lines interleave: each is labelled with the run that wrote it.
  const onLog = options.onLog ?? ((text: string) => void process.stdout.write(text));
  const labelled = (text: string, id: number): void =>
    onLog(labelSweepLog(text, id, jobs[id]?.params ?? {}));
  const executor =
    options.executor ??
    new PoolExecutor(
      options.pool === 'threads'
        ? (n, log) => new ThreadPool(n, log)
        : (n, log) => new ProcessPool(n, log),
      options.workers ?? sweep.workers ?? undefined,
      labelled,
    );
  const results: SweepResult[] = [];
  for await (const r of executor.run(jobs)) {
    results.push(r);
    options.onProgress?.(results.length / jobs.length);
  }
  // Runs that lacked data: exit 3 before anything is written (a good earlier sweep in
  // `out` stays as it was), naming every run's missing tokens.
  const gaps = SweepMissingDataError.of(results);
  if (gaps !== undefined) throw gaps;
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
 * rejected orders (the venue's or the engine's refusals: no market data yet, margin, tick
 * size) did not trade as its params asked: every run without one ranks above it, whatever
 * its metric. Denials (the risk and state rules refusing an order before it is sent, such
 * as an entry after the square-off time) are the framework protecting the account: they
 * are counted and shown, never demoted. A run with missing data (`--allow-missing`) did
 * not see the market its params were meant for: it ranks after every complete run. A
 * run with no closed trade has no profit factor, win
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
    const ma = lacksData(a);
    const mb = lacksData(b);
    if (ma !== mb) return ma ? 1 : -1;
    const ra = hadRejections(a.summary);
    const rb = hadRejections(b.summary);
    if (ra !== rb) return ra ? 1 : -1;
    const sa = score(a.summary);
    const sb = score(b.summary);
    return sa === sb ? a.id - b.id : sb > sa ? 1 : -1;
  });
}

/** Whether a run had any rejected order (older results lack the count); denials do not count. */
function hadRejections(s: Summary): boolean {
  return (s.rejected ?? 0) > 0;
}

/** Whether a run's strategies followed tokens its data lacks (`--allow-missing`). */
function lacksData(r: SweepResult): boolean {
  return r.ok && r.missing !== undefined && r.missing.length > 0;
}

const named = (t: { token: number; symbol?: string }): string =>
  t.symbol === undefined ? String(t.token) : `${t.token} (${t.symbol})`;

/**
 * The ranking as text lines: rank, the metric (money in ₹), net PnL, trades, drawdown,
 * denied orders, the params, and marks on runs that had rejections or missing data. The
 * note under it says how many were ranked after the others, and only says "ranked after"
 * when some run was not.
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
    const rejected = hadRejections(s) ? `  REJECTIONS ${s.rejected}` : '';
    const missing = lacksData(r)
      ? `  MISSING DATA for ${(r.missing ?? []).map(named).join(', ')}`
      : '';
    return `${String(i + 1).padStart(3)}  ${metric}=${value.padEnd(14)} net ${formatInr(s.netPnl).padEnd(14)} trades ${String(s.trades).padEnd(4)} dd ${formatInr(s.maxDrawdown).padEnd(12)} denied ${String(s.denied ?? 0).padEnd(3)} ${params}${rejected}${missing}`;
  });
  const ok = results.filter((r) => r.ok);
  const notes = [
    demotedNote(
      ok.filter(lacksData).length,
      ok.length,
      'lacked data for tokens their strategies follow',
    ),
    demotedNote(
      ok.filter((r) => !lacksData(r) && hadRejections(r.summary)).length,
      ok.filter((r) => !lacksData(r)).length,
      'had orders rejected by the venue or the engine',
    ),
  ].join('');
  return `rank by ${metric}:\n${lines.join('\n')}\n${notes}`;
}

/**
 * The note for `marked` of `of` runs ranked after the others; "ranked after" only when
 * some run was not marked (all marked: the ranking is the plain one, and says so).
 */
function demotedNote(marked: number, of: number, what: string): string {
  if (marked === 0) return '';
  if (marked === of) return `all ${of} run(s) ${what}: none to rank them after\n`;
  return `${marked} run(s) ${what}: ranked after the other ${of - marked}\n`;
}
