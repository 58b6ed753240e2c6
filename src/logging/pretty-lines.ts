import { IST_OFFSET_MS } from '../domain/ist.ts';
import type { LogContext } from './log-context.ts';
import { compactFields, errorTrace, type SymbolOf } from './log-values.ts';
import { isOrderEvent, isRoutineOrderEvent, orderLine } from './order-line.ts';
import { SUMMARY_MESSAGES, SummaryLines } from './summary-lines.ts';

/** pino's level numbers. */
const DEBUG = 20;
const WARN = 40;
const ERROR = 50;
const LABELS: Readonly<Record<number, string>> = {
  10: 'TRACE',
  20: 'DEBUG',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/**
 * Messages of routine steps, shown at debug only: a fill's line already says what happened,
 * and a denial's `OrderDenied` line follows its `intent denied`.
 */
const ROUTINE_MESSAGES = new Set(['intent', 'plot', 'strategy stream completed', 'intent denied']);

/** Options of {@link PrettyLines}. */
export interface PrettyLinesOptions {
  /** The logger's level (pino's number): routine records show only at debug or below. */
  level: number;
  context?: LogContext;
}

/**
 * Turns pino's records into lines for people, one a record:
 * `09:31:02 IST  sma  BUY 10 SBIN-EQ @ ₹794.15 filled (order 9000000035)`. The time is
 * the market's (`marketTime`, from the kernel's clock: simulated in a backtest), in IST;
 * a new IST day starts with a line naming the date. Order events read as trades, other
 * records as their message and compact fields (paise fields in rupees, tokens as symbols).
 * The periodic summary reads as a compact table ({@link SummaryLines}).
 * Warnings and errors carry their level. Routine records (intents, plots, the steps of an
 * order before its outcome) are left out unless the level is debug. Records arrive
 * already redacted: pino censors before it serialises.
 *
 * @example
 * ```ts
 * const lines = new PrettyLines({ level: 30 });
 * lines.format('{"level":30,"marketTime":"2026-11-20T09:31:02.000+05:30","strategy":"sma","msg":"golden cross"}');
 * // '── 2026-11-20 Fri IST ──\n09:31:02 IST  sma  golden cross\n'
 * ```
 */
export class PrettyLines {
  private day: string | undefined;
  /** The periodic summary's records, as a compact table. */
  private readonly summary = new SummaryLines();

  constructor(private readonly options: PrettyLinesOptions) {}

  /** The text of one serialised record (possibly with a date line before it); '' to skip. */
  format(json: string): string {
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(json) as Record<string, unknown>;
    } catch {
      return json.endsWith('\n') ? json : `${json}\n`;
    }
    const level = typeof record.level === 'number' ? record.level : 30;
    if (this.options.level > DEBUG && this.routine(record)) return '';
    const at = instantOf(record);
    const shifted = new Date(at + IST_OFFSET_MS).toISOString();
    const date = shifted.slice(0, 10);
    let head = '';
    if (date !== this.day) {
      this.day = date;
      head = `── ${date} ${WEEKDAYS[new Date(at + IST_OFFSET_MS).getUTCDay()]} IST ──\n`;
    }
    const time = `${shifted.slice(11, 19)} IST  `;
    if (level < WARN && SummaryLines.handles(record)) {
      const symbolOf: SymbolOf = (token) => this.options.context?.symbolOf?.(token);
      return record.msg === SUMMARY_MESSAGES.market
        ? `${head}${this.summary.market(record, time, symbolOf)}`
        : `${head}${this.summary.pnl(record)}`;
    }
    this.summary.interrupt();
    const who = String(record.strategy ?? record.component ?? '-');
    const label = level >= WARN || level <= DEBUG ? `${LABELS[level] ?? level}  ` : '';
    // An error's stack and causes under its line: a crash must be locatable without JSON.
    const trace = level >= ERROR ? errorTrace(record) : '';
    return `${head}${time}${who}  ${label}${this.body(record)}\n${trace}`;
  }

  private routine(record: Record<string, unknown>): boolean {
    if (isOrderEvent(record)) return isRoutineOrderEvent(record);
    return ROUTINE_MESSAGES.has(String(record.msg));
  }

  private body(record: Record<string, unknown>): string {
    const symbolOf: SymbolOf = (token) => this.options.context?.symbolOf?.(token);
    if (isOrderEvent(record)) return orderLine(record, symbolOf);
    const msg = typeof record.msg === 'string' ? record.msg : '';
    const fields = compactFields(record, symbolOf);
    return fields === '' ? msg : msg === '' ? fields : `${msg}  ${fields}`;
  }
}

/** The record's market time (`marketTime`, any ISO offset), else its wall time, epoch ms. */
function instantOf(record: Record<string, unknown>): number {
  if (typeof record.marketTime === 'string') {
    const ms = Date.parse(record.marketTime);
    if (!Number.isNaN(ms)) return ms;
  }
  return typeof record.time === 'number' ? record.time : Date.now();
}
