import type { Exchange } from '../domain/order-params.ts';
import { CalendarDataError } from './calendar-errors.ts';

/**
 * A range of IST wall-clock time within one day, `HH:MM` to `HH:MM`, end after start.
 *
 * @example
 * ```ts
 * const regular: TimeOfDayRange = { start: '09:15', end: '15:30' };
 * ```
 */
export interface TimeOfDayRange {
  readonly start: string;
  readonly end: string;
}

/**
 * Regular trading hours of one exchange, in IST.
 *
 * @example
 * ```ts
 * const nse: ExchangeSessionConfig = {
 *   regular: { start: '09:15', end: '15:30' },
 *   preOpen: { start: '09:00', end: '09:08' },
 *   weekdays: [1, 2, 3, 4, 5],
 * };
 * ```
 */
export interface ExchangeSessionConfig {
  /** The continuous session, `[start, end)`. */
  readonly regular: TimeOfDayRange;
  /** The pre-open call auction's order entry window, or `null` when the exchange has none. */
  readonly preOpen: TimeOfDayRange | null;
  /** ISO weekdays with a regular session: 1 = Monday … 7 = Sunday. */
  readonly weekdays: readonly number[];
}

/**
 * Per-exchange overrides. An exchange left out inherits from the one it follows (NFO from
 * NSE, BFO from BSE), so overriding NSE alone moves NFO with it.
 *
 * @example
 * ```ts
 * const overrides: ExchangeSessionOverrides = { NSE: { preOpen: null } };
 * ```
 */
export type ExchangeSessionOverrides = Partial<Record<Exchange, Partial<ExchangeSessionConfig>>>;

const NSE_BSE: ExchangeSessionConfig = {
  regular: { start: '09:15', end: '15:30' },
  preOpen: { start: '09:00', end: '09:08' },
  weekdays: [1, 2, 3, 4, 5],
};

/** Exchange rules: NSE and BSE run 09:15–15:30 IST Monday to Friday, pre-open 09:00–09:08. */
export const DEFAULT_EXCHANGE_SESSIONS: Readonly<Record<Exchange, ExchangeSessionConfig>> = {
  NSE: NSE_BSE,
  BSE: NSE_BSE,
  NFO: NSE_BSE,
  BFO: NSE_BSE,
};

/** Which exchange a derivatives segment takes its hours from when not configured itself. */
const FOLLOWS: Readonly<Record<Exchange, Exchange | undefined>> = {
  NSE: undefined,
  BSE: undefined,
  NFO: 'NSE',
  BFO: 'BSE',
};

/** Minutes after IST midnight, as used internally. */
export interface MinuteRange {
  readonly start: number;
  readonly end: number;
}

/** {@link ExchangeSessionConfig} with times parsed to minutes after IST midnight. */
export interface ResolvedSessionConfig {
  readonly regular: MinuteRange;
  readonly preOpen: MinuteRange | undefined;
  readonly weekdays: ReadonlySet<number>;
}

/** Parses `HH:MM` (00:00–23:59) to minutes after midnight; throws {@link CalendarDataError}. */
export function parseTimeOfDay(text: string, what: string): number {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  if (m === null)
    throw new CalendarDataError(`${what}: expected "HH:MM", got ${JSON.stringify(text)}`);
  return Number(m[1]) * 60 + Number(m[2]);
}

/** Parses a range and checks that it ends after it starts. */
export function parseMinuteRange(range: TimeOfDayRange, what: string): MinuteRange {
  const start = parseTimeOfDay(range.start, `${what} start`);
  const end = parseTimeOfDay(range.end, `${what} end`);
  if (end <= start) {
    throw new CalendarDataError(
      `${what}: ${range.start}-${range.end} does not end after it starts`,
    );
  }
  return { start, end };
}

/** Applies overrides over the defaults, with NFO/BFO inheriting from NSE/BSE. */
export function resolveExchangeSessions(
  overrides: ExchangeSessionOverrides = {},
): Record<Exchange, ResolvedSessionConfig> {
  const merged = (exchange: Exchange): ExchangeSessionConfig => {
    const parent = FOLLOWS[exchange];
    const base = parent === undefined ? DEFAULT_EXCHANGE_SESSIONS[exchange] : merged(parent);
    return { ...base, ...overrides[exchange] };
  };
  const resolve = (exchange: Exchange): ResolvedSessionConfig => {
    const cfg = merged(exchange);
    for (const d of cfg.weekdays) {
      if (!Number.isInteger(d) || d < 1 || d > 7) {
        throw new CalendarDataError(`${exchange} weekdays: expected 1..7, got ${d}`);
      }
    }
    return {
      regular: parseMinuteRange(cfg.regular, `${exchange} regular session`),
      preOpen:
        cfg.preOpen === null ? undefined : parseMinuteRange(cfg.preOpen, `${exchange} pre-open`),
      weekdays: new Set(cfg.weekdays),
    };
  };
  return { NSE: resolve('NSE'), BSE: resolve('BSE'), NFO: resolve('NFO'), BFO: resolve('BFO') };
}
