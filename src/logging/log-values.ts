import { toIstIso } from '../domain/ist.ts';
import { formatInr } from '../domain/money.ts';
import { isInstantField } from './iso-times.ts';

/**
 * Field names that hold paise wherever the framework logs them (events, quotes, positions,
 * candles). A number under one of these names is shown in rupees; any other number as is.
 * Strategies' own fields with other names cannot be told apart from counts, so they stay
 * numbers.
 */
const PAISE_FIELDS = new Set([
  'price',
  'fillPrice',
  'averagePrice',
  'avgPrice',
  'triggerPrice',
  'limitPrice',
  'lastPrice',
  'ltp',
  'open',
  'high',
  'low',
  'close',
  'spot',
  'bid',
  'ask',
  'pnl',
  'realised',
  'unrealised',
  'strike',
  'premium',
  // A bracket's stop, target and trail distances are paise (`BracketLevel.points`).
  'points',
]);

/** Any other field named `…Price` (`stopPrice`, `fastAvgPrice`) holds paise too. */
const isMoneyField = (key: string): boolean => PAISE_FIELDS.has(key) || /[a-z]Price$/.test(key);

/** Rupees already written as text (`formatRupees`: "801.90", "-487.35"; or "₹801.90", "-₹487.35"). */
const RUPEE_TEXT = /^-?₹?\d+(\.\d{1,2})?$/;

/** Fields every line shows elsewhere (time, level, who) or that only machines want. */
const HIDDEN = new Set([
  'level',
  'time',
  // A backtest's JSON keeps the wall time beside its simulated `time` (create-logger.ts).
  'wallTime',
  'msg',
  'marketTime',
  'pid',
  'hostname',
  'component',
  'strategy',
]);

/** Longest value shown in a generic line; the JSON output keeps it whole. */
const MAX_VALUE = 160;

/** Rupees for paise: `₹7,94,150.25`; a fraction of a paisa (an average) is rounded. */
export function rupees(paise: number): string {
  return formatInr(Math.round(paise));
}

/** What a token is called: its symbol, else the number itself. */
export type SymbolOf = (token: number) => string | undefined;

/**
 * One field's value for people: paise fields in rupees (nested ones too; a money field
 * written as rupee text gets its ₹ and grouping), tokens with their symbol, fractions to two
 * places, objects compact. A money field holding a map by token (the summary's `ltp`) names
 * each token by its symbol.
 */
function showValue(key: string, value: unknown, symbolOf: SymbolOf, depth = 0): string {
  const money = isMoneyField(key);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return String(value);
    if (money) return rupees(value);
    // An epoch-ms instant (`at`, `placedAt`): the line's own day, so the IST time of day.
    if (isInstantField(key, value)) return `${toIstIso(value).slice(11, 23)} IST`;
    if (key === 'token' && Number.isInteger(value)) return symbolOf(value) ?? String(value);
    return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(2)));
  }
  if (typeof value === 'string') {
    if (money && RUPEE_TEXT.test(value))
      return rupees(Math.round(Number(value.replace('₹', '')) * 100));
    return /\s/.test(value) ? JSON.stringify(value) : value;
  }
  if (value === null || typeof value !== 'object' || depth > 2) return String(value);
  if (Array.isArray(value))
    return `[${value.map((v) => showValue(key, v, symbolOf, depth + 1)).join(', ')}]`;
  const shown = Object.entries(value).filter(
    // The ISO twin of a nested instant (`event.atIso`): the instant is shown.
    ([k]) => !(k.endsWith('Iso') && k.slice(0, -3) in value),
  );
  const parts = shown.map(([k, v]) => {
    const byToken = money && /^\d+$/.test(k);
    const name = byToken ? (symbolOf(Number(k)) ?? k) : k;
    return `${name}: ${showValue(byToken ? key : k, v, symbolOf, depth + 1)}`;
  });
  return `{${parts.join(', ')}}`;
}

/** An error as pino serialises it (`err`), in one line: `TypeError: message`. */
function showError(err: unknown): string {
  if (err === null || typeof err !== 'object') return String(err);
  const e = err as { type?: unknown; message?: unknown };
  const message = typeof e.message === 'string' ? e.message : JSON.stringify(err);
  return typeof e.type === 'string' && e.type !== 'Error' ? `${e.type}: ${message}` : message;
}

/** Indent of a trace's lines: under the message, past the time column. */
const TRACE_INDENT = '    ';

/**
 * The stack of a record's error (`err`, as pino serialises it: the stack with each cause's
 * appended as `caused by: …`), as indented lines to print under the record's line; '' when
 * there is none. The line already says `Type: message`, so the stack's own first lines (the
 * message, which may span lines) are left out: the frames and the causes follow. Nothing is
 * cut: the frames are where a strategy's crash is found.
 *
 * @example
 * ```ts
 * errorTrace({ err: { type: 'TypeError', message: 'x', stack: 'TypeError: x\n    at map (boom.ts:9:12)' } });
 * // '      at map (boom.ts:9:12)\n'
 * ```
 */
export function errorTrace(record: Record<string, unknown>): string {
  const err = record.err;
  if (err === null || typeof err !== 'object') return '';
  const stack = (err as { stack?: unknown }).stack;
  if (typeof stack !== 'string' || stack === '') return '';
  const lines = stack.split('\n');
  const firstFrame = lines.findIndex((l) => /^\s+at /.test(l));
  // No frame at all (a stack someone wrote by hand): everything after the first line.
  const shown = lines.slice(firstFrame === -1 ? 1 : firstFrame).filter((l) => l.trim() !== '');
  // Frames under their error, a cause's `caused by:` line one step out.
  return shown
    .map((l) => `${TRACE_INDENT}${/^\s*at /.test(l) ? `  ${l.trim()}` : l.trim()}\n`)
    .join('');
}

/**
 * The fields of a record a generic line shows, `key=value` each (money in rupees, tokens as
 * symbols, long values cut); what the line shows elsewhere is left out.
 *
 * @example
 * ```ts
 * compactFields({ msg: 'x', close: 79965, token: 3045 }, () => 'SBIN-EQ'); // 'close=₹799.65 token=SBIN-EQ'
 * ```
 */
export function compactFields(record: Record<string, unknown>, symbolOf: SymbolOf): string {
  const out: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    // A field that repeats the message (a warning's `note`) is said once.
    if (HIDDEN.has(key) || value === undefined || value === record.msg) continue;
    // The ISO twin of an instant (JSON's `atIso`): the line shows the instant itself.
    if (key.endsWith('Iso') && key.slice(0, -3) in record) continue;
    // A token beside its symbol says nothing more.
    if (
      key === 'token' &&
      typeof value === 'number' &&
      typeof record.symbol === 'string' &&
      record.symbol === symbolOf(value)
    )
      continue;
    let text = key === 'err' ? showError(value) : showValue(key, value, symbolOf);
    if (text.length > MAX_VALUE) text = `${text.slice(0, MAX_VALUE - 1)}…`;
    out.push(`${key}=${text}`);
  }
  return out.join(' ');
}
