import type { TableColumn } from './aligned-table.ts';
import { rupees, type SymbolOf } from './log-values.ts';

/** Messages of the periodic summary's records (`src/runtime/bot-summary.ts` logs them). */
export const SUMMARY_MESSAGES = {
  /** Market time, session, last prices, feed health and strategy states. */
  market: 'market summary',
  /** One strategy's realised and unrealised PnL and open positions. */
  pnl: 'strategy PnL (₹)',
} as const;

/** Under the time and component of a line: the summary's rows sit below its first line. */
const INDENT = ' '.repeat('09:31:02 IST  '.length);
/** Money cells keep one width from row to row (rows are printed as their records come). */
const MONEY_WIDTH = 14;
/** LTPs a line. */
const LTPS_PER_LINE = 6;

const PNL_COLUMNS: readonly TableColumn[] = [
  { header: 'strategy' },
  { header: 'status' },
  { header: 'realised', align: 'right' },
  { header: 'unrealised', align: 'right' },
  { header: 'position' },
];

/** Rupee text (`"-487.35"`, the PnL record's money) or paise, as `-₹487.35`. */
function money(value: unknown): string {
  if (typeof value === 'number') return rupees(value);
  if (typeof value === 'string' && /^-?\d+(\.\d{1,2})?$/.test(value))
    return rupees(Math.round(Number(value) * 100));
  return value === undefined ? '' : String(value);
}

const count = (n: unknown, word: string): string => `${typeof n === 'number' ? n : '?'} ${word}`;

/**
 * The periodic summary for people, as a compact table: the market record becomes a line
 * (session, feed health, request counts), a line of last prices by symbol, and the heading
 * of a table whose rows are the strategy PnL records that follow it (status, realised,
 * unrealised, position). Rows are printed as their records arrive, at fixed widths sized from
 * the strategies the market record names; a PnL record with no market record before it (the
 * one at stop) gets its own heading.
 */
export class SummaryLines {
  private statuses: Record<string, string> = {};
  private idWidth = 8;
  private statusWidth = 7;
  /** The last line printed was the summary's: a PnL row continues its table. */
  private inTable = false;

  /** Whether a record is one of the summary's. */
  static handles(record: Record<string, unknown>): boolean {
    return record.msg === SUMMARY_MESSAGES.market || record.msg === SUMMARY_MESSAGES.pnl;
  }

  /**
   * Called for every other record: the next PnL record starts a table of its own, without
   * the statuses of the last market record (the PnL at stop would show stopped strategies
   * as running).
   */
  interrupt(): void {
    if (!this.inTable) return;
    this.inTable = false;
    this.statuses = {};
  }

  /** The market record's lines: the first after `prefix` (time and component), the rest indented. */
  market(record: Record<string, unknown>, prefix: string, symbolOf: SymbolOf): string {
    const strategies = (record.strategies ?? {}) as Record<string, unknown>;
    const data = (record.strategyData ?? {}) as Record<
      string,
      { status?: unknown; staleTokens?: unknown; rejectedTokens?: unknown }
    >;
    const many = (list: unknown): number => (Array.isArray(list) ? list.length : 0);
    this.statuses = {};
    for (const [id, status] of Object.entries(strategies)) {
      const d = data[id];
      // A running strategy whose tokens are stale or rejected is not fine: the row says so.
      const notes = [
        ...(many(d?.staleTokens) > 0 ? [`${many(d?.staleTokens)} stale`] : []),
        ...(many(d?.rejectedTokens) > 0 ? [`${many(d?.rejectedTokens)} rejected`] : []),
      ];
      if (notes.length === 0 && d?.status !== undefined && d.status !== 'ok')
        notes.push(`data ${String(d.status)}`);
      this.statuses[id] = [String(status), ...notes].join(', ');
    }
    const ids = Object.keys(this.statuses);
    this.idWidth = Math.max(8, ...ids.map((id) => id.length));
    this.statusWidth = Math.max(6, ...Object.values(this.statuses).map((s) => s.length));
    const rejected = Array.isArray(record.rejectedTokens) ? record.rejectedTokens : [];
    const head = [
      record.open === true ? 'market open' : 'market closed',
      `feed ${String(record.health ?? '?')}`,
      `${count(record.quoteTokens, 'tokens')}, ${count(record.quoteRequests, 'requests')}, ${count(record.failedRequests, 'failed')}`,
      ...(rejected.length === 0
        ? []
        : [`rejected ${rejected.map((t) => symbolOf(Number(t)) ?? String(t)).join(', ')}`]),
    ].join('  ');
    const ltps = Object.entries((record.ltp ?? {}) as Record<string, unknown>).map(
      ([token, ltp]) => `${symbolOf(Number(token)) ?? token} ${money(ltp)}`,
    );
    const ltpLines: string[] = [];
    for (let i = 0; i < ltps.length; i += LTPS_PER_LINE)
      ltpLines.push(
        `${INDENT}${i === 0 ? 'LTP' : '   '}  ${ltps.slice(i, i + LTPS_PER_LINE).join('  ')}\n`,
      );
    this.inTable = true;
    return `${prefix}summary  ${head}\n${ltpLines.join('')}${this.heading()}`;
  }

  /** One strategy's row (with the table's heading when no market record came just before). */
  pnl(record: Record<string, unknown>): string {
    const id = String(record.strategy ?? '-');
    const held = record.positions;
    const position =
      held !== null && typeof held === 'object'
        ? Object.entries(held as Record<string, unknown>)
            .map(
              ([symbol, net]) =>
                `${typeof net === 'number' && net > 0 ? '+' : ''}${String(net)} ${symbol}`,
            )
            .join(', ') || 'flat'
        : `${String(record.openPositions ?? '?')} open`;
    const heading = this.inTable ? '' : this.heading();
    this.inTable = true;
    const row = [
      id,
      this.statuses[id] ?? '',
      money(record.realised),
      money(record.unrealised),
      position,
    ];
    return heading + this.table([row]);
  }

  private heading(): string {
    return this.table([PNL_COLUMNS.map((c) => c.header)]);
  }

  /** Rows at the table's fixed widths (a cell wider than its column pushes the rest along). */
  private table(rows: readonly (readonly string[])[]): string {
    const widths = [this.idWidth, this.statusWidth, MONEY_WIDTH, MONEY_WIDTH];
    const line = (row: readonly string[]): string =>
      row
        .map((cell, i) =>
          PNL_COLUMNS[i]?.align === 'right'
            ? cell.padStart(widths[i] ?? 0)
            : cell.padEnd(widths[i] ?? 0),
        )
        .join('  ')
        .trimEnd();
    return rows.map((row) => `${INDENT}${line(row)}\n`).join('');
  }
}
