import { DateTime } from 'luxon';
import { IST_ZONE } from '../domain/ist.ts';
import { InvalidInstantError } from './calendar-errors.ts';

/**
 * An instant in any of the forms callers tend to hold: Unix epoch milliseconds, a `Date`, a
 * luxon `DateTime` (any zone), or an ISO-8601 string. An ISO string without an offset is
 * read as IST wall time, never as the host's local time, so UTC servers agree with laptops.
 *
 * @example
 * ```ts
 * const a: Instant = 1_795_000_000_000;
 * const b: Instant = '2026-11-08T12:45:00Z'; // 18:15 IST
 * const c: Instant = '2026-11-08T18:15'; // no offset: IST
 * ```
 */
export type Instant = number | Date | DateTime | string;

/** Converts an {@link Instant} to epoch milliseconds; throws {@link InvalidInstantError}. */
export function toEpochMs(at: Instant): number {
  if (typeof at === 'number') {
    if (!Number.isFinite(at)) throw new InvalidInstantError(at, 'expected finite epoch ms');
    return at;
  }
  if (typeof at === 'string') {
    const parsed = DateTime.fromISO(at, { zone: IST_ZONE });
    if (!parsed.isValid) {
      throw new InvalidInstantError(at, parsed.invalidExplanation ?? 'expected ISO-8601');
    }
    return parsed.toMillis();
  }
  if (at instanceof Date) {
    const ms = at.getTime();
    if (Number.isNaN(ms)) throw new InvalidInstantError(at, 'invalid Date');
    return ms;
  }
  if (DateTime.isDateTime(at)) {
    if (!at.isValid) throw new InvalidInstantError(at, at.invalidExplanation ?? 'invalid DateTime');
    return at.toMillis();
  }
  throw new InvalidInstantError(at, 'expected epoch ms, Date, DateTime or ISO-8601 string');
}
