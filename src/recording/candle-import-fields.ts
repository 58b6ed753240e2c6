import { DateTime } from 'luxon';
import { IST_ZONE } from '../domain/ist.ts';

/** How prices are written in an imported file. */
export type PriceUnits = 'rupees' | 'paise';

const RUPEES = /^(\d+)(?:\.(\d*))?$/;
const PAISE = /^\d+$/;
// Date, then optionally a time (T or a space) and an offset (Z, +05:30, +0530).
const TIMESTAMP =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

/**
 * A price as integer paise: rupee decimal text converted exactly (`801.9` → 80190,
 * `801.900` too), or whole paise. Returns a reason string for text that is no price or, in
 * rupees, not a whole number of paise (`801.905`): never rounded, a vendor file with
 * sub-paisa prices is not what it claims.
 *
 * @example
 * ```ts
 * parsePrice('801.90', 'rupees'); // 80190
 * parsePrice('801.905', 'rupees'); // 'not a whole number of paise: 801.905'
 * ```
 */
export function parsePrice(text: string, units: PriceUnits): number | string {
  const t = text.trim();
  if (units === 'paise') {
    if (!PAISE.test(t)) return `not a whole number of paise: ${JSON.stringify(text)}`;
    return checked(Number(t), text);
  }
  const m = RUPEES.exec(t);
  if (m === null) return `not a rupee amount: ${JSON.stringify(text)}`;
  const frac = (m[2] ?? '').replace(/0+$/, '');
  if (frac.length > 2) return `not a whole number of paise: ${text}`;
  return checked(Number(m[1]) * 100 + Number(frac.padEnd(2, '0')), text);
}

function checked(paise: number, text: string): number | string {
  if (!Number.isSafeInteger(paise)) return `out of range: ${text}`;
  return paise > 0 ? paise : `not a positive price: ${text}`;
}

/** A whole, non-negative count (volume, open interest), or a reason string. */
export function parseCount(text: string): number | string {
  const t = text.trim();
  if (!PAISE.test(t)) return `not a whole non-negative number: ${JSON.stringify(text)}`;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : `out of range: ${text}`;
}

/**
 * A timestamp as epoch ms: ISO 8601 with an offset (`Z`, `+05:30`, `+0530`), or naive
 * (no offset) read as IST; a space may stand for the `T`; a date alone is 00:00 IST (day
 * bars). Returns a reason string for anything else.
 *
 * @example
 * ```ts
 * parseTimestamp('2025-01-02 09:15:00'); // Date.parse('2025-01-02T09:15:00+05:30')
 * ```
 */
export function parseTimestamp(text: string): number | string {
  const t = text.trim();
  if (!TIMESTAMP.test(t)) return `not an ISO 8601 timestamp: ${JSON.stringify(text)}`;
  const iso = t.replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const dt = DateTime.fromISO(iso, { zone: IST_ZONE, setZone: true });
  return dt.isValid ? dt.toMillis() : `not a valid date-time: ${JSON.stringify(text)}`;
}
