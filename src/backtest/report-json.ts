import { type Analysis, analyze, equityOf } from './report/analysis.ts';
import type { BacktestResult } from './run-backtest.ts';

/**
 * The JSON report: the whole result, money in integer paise (field names say so in
 * docs/backtests.md), instants as epoch ms plus an ISO copy for people, and what the
 * report derives from it ({@link analyze}: per-trade exit reason, duration and MAE/MFE,
 * breakdowns, daily and monthly returns, the benchmark).
 *
 * @example
 * ```ts
 * await writeFile('report.json', reportJson(result));
 * ```
 */
export function reportJson(result: BacktestResult, analysis: Analysis = analyze(result)): string {
  return [...reportJsonParts(result, analysis)].join('');
}

/** A top-level array written an item at a time rather than stringified whole. */
class Items {
  constructor(
    readonly list: readonly unknown[],
    /** Items stringified into one part. */
    readonly perPart: number,
    readonly map: (item: unknown) => unknown = (x) => x,
  ) {}
}

/** A top-level value: stringified whole, or an array item by item, or the equity curve. */
type Field = unknown | Items | typeof EQUITY;
const EQUITY = Symbol('equity');

/** Items and equity points stringified into one part: a few hundred kB of text at most. */
const PER_PART = 256;
const EQUITY_PER_PART = 2_000;

/** A number as JSON writes it (`null` for NaN and the infinities). */
const num = (x: number): string => (Number.isFinite(x) ? String(x) : 'null');

/** `value` as `JSON.stringify(report, null, 1)` lays it out at `depth`; undefined when it omits it. */
function nested(value: unknown, depth: number): string | undefined {
  const text = JSON.stringify(value, null, 1) as string | undefined;
  return text?.replace(/\n/g, `\n${' '.repeat(depth)}`);
}

/** An array's items at depth 1, as JSON.stringify lays them out, a part of `perPart` items at a time. */
function* itemParts({ list, perPart, map }: Items): Generator<string> {
  if (list.length === 0) {
    yield '[]';
    return;
  }
  for (let i = 0; i < list.length; i += perPart) {
    let text = i === 0 ? '[' : '';
    const end = Math.min(list.length, i + perPart);
    for (let j = i; j < end; j++) {
      // An undefined item (or a function) is `null` in a JSON array.
      text += `${j === 0 ? '' : ','}\n  ${nested(map(list[j]), 2) ?? 'null'}`;
    }
    yield text;
  }
  yield '\n ]';
}

/**
 * The equity curve at depth 1, straight from its columns (a month is 60 000 samples: no
 * object and no `JSON.stringify` a sample), laid out as JSON.stringify lays out the
 * points `{ at, equity, drawdown, exposure, open }`.
 */
function* equityParts(result: BacktestResult): Generator<string> {
  const c = equityOf(result);
  if (c.length === 0) {
    yield '[]';
    return;
  }
  for (let i = 0; i < c.length; i += EQUITY_PER_PART) {
    let text = i === 0 ? '[' : '';
    const end = Math.min(c.length, i + EQUITY_PER_PART);
    for (let j = i; j < end; j++) {
      text += `${j === 0 ? '' : ','}\n  {\n   "at": ${num(c.at[j] as number)},\n   "equity": ${num(c.equity[j] as number)},\n   "drawdown": ${num(c.drawdown[j] as number)},\n   "exposure": ${num(c.exposure[j] as number)},\n   "open": ${c.open[j] === 1}\n  }`;
    }
    yield text;
  }
  yield '\n ]';
}

/**
 * {@link reportJson}'s text in parts, the same bytes once joined (`JSON.stringify(report,
 * null, 1)` and a newline): written a top-level field at a time, the long arrays (trades,
 * fills, orders, intents, plots, rejections, price bars) a few hundred items a part and
 * the equity curve from its columns a few thousand samples a part. A month of 60 s
 * samples is megabytes of text; written part by part, the report never holds it whole,
 * nor the objects it would be stringified from.
 */
export function* reportJsonParts(
  result: BacktestResult,
  analysis: Analysis = analyze(result),
): Generator<string> {
  const iso = (ms: number | undefined): string | null =>
    ms === undefined ? null : new Date(ms).toISOString();
  const { trades, ...stats } = analysis;
  const fields: [string, Field][] = [
    ['format', 'tiqs-runner-backtest-report'],
    ['version', 1],
    ['money', 'integer paise'],
    ['name', result.name],
    ['params', result.params],
    // Strategy id → params it ran with (schema defaults, spec, sweep point merged).
    ['effectiveParams', result.effectiveParams],
    // Strategy id → params the spec file writes (the rest of effectiveParams are defaults).
    ['specParams', result.specParams],
    // The spec file as written, secret values masked.
    ['spec', result.spec],
    // 'ticks' (fills against recorded depth) or 'candles' (the bar fill model).
    ['dataKind', result.dataKind],
    [
      'summary',
      { ...result.summary, start: iso(result.summary.startMs), end: iso(result.summary.endMs) },
    ],
    ['strategies', result.strategies],
    ['fillModel', result.fillModel],
    ['costModel', result.costModel],
    // Round trips with exitReason, durationMs, mae/mfe (paise, whole quantity) and %.
    [
      'trades',
      new Items(trades, PER_PART, (t) => {
        const trip = t as (typeof trades)[number];
        // Keys written out in the trade's own order (trade-details.ts) rather than spread
        // with two more: V8's slow path for that costs tens of µs a trade (issue 13).
        return {
          strategyId: trip.strategyId,
          token: trip.token,
          symbol: trip.symbol,
          direction: trip.direction,
          openedAt: trip.openedAt,
          closedAt: trip.closedAt,
          quantity: trip.quantity,
          entryPrice: trip.entryPrice,
          exitPrice: trip.exitPrice,
          gross: trip.gross,
          costs: trip.costs,
          net: trip.net,
          exitReason: trip.exitReason,
          exitIntentId: trip.exitIntentId,
          durationMs: trip.durationMs,
          mae: trip.mae,
          mfe: trip.mfe,
          maePercent: trip.maePercent,
          mfePercent: trip.mfePercent,
          opened: iso(trip.openedAt),
          closed: iso(trip.closedAt),
          // A key TradeDetail gains and this list lacks fails to compile, not to be written.
        } satisfies Record<keyof typeof trip | 'opened' | 'closed', unknown>;
      }),
    ],
    ['fills', new Items(result.fills, PER_PART)],
    ['orders', new Items(result.orders, PER_PART)],
    ['intents', new Items(result.intents, PER_PART)],
    // Indicator series for the price chart: { strategyId, name, at, value }, prices in paise.
    ['plots', new Items(result.plots, PER_PART)],
    // Rejected and denied orders: { at, strategy, token, symbol?, side, quantity, kind, reason }.
    ['rejections', new Items(result.rejections, PER_PART)],
    // Tokens subscribed that the data lacks (a run with --allow-missing); null when none.
    ['missingData', result.missingData ?? null],
    // What the data made of the run (an unfinished candle download, bars outside every session).
    ['warnings', result.warnings ?? []],
    // Failed strategy id → what it failed with.
    ['failures', result.failures ?? {}],
    // overall / bySymbol / byStrategy / byExitReason stats, daily and monthly returns,
    // best and worst day, the buy-and-hold benchmark.
    ['stats', stats],
    ['benchmarkToken', result.benchmarkToken ?? null],
    // One-minute bars per instrument: { token, symbol, start[], open[], high[], low[], close[] }.
    ['prices', new Items(result.prices, 1)],
    ['equity', EQUITY],
    ['elapsedMs', result.elapsedMs],
  ];
  let first = true;
  for (const [key, value] of fields) {
    const head = `${first ? '{' : ','}\n ${JSON.stringify(key)}: `;
    if (value === EQUITY) {
      yield head;
      yield* equityParts(result);
    } else if (value instanceof Items) {
      yield head;
      yield* itemParts(value);
    } else {
      // JSON.stringify leaves out a key whose value is undefined (or a function).
      const text = nested(value, 1);
      if (text === undefined) continue;
      yield head + text;
    }
    first = false;
  }
  yield first ? '{}\n' : '\n}\n';
}
