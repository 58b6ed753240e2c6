import { DAY_MS, istDayNumber } from '../../domain/ist.ts';

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/**
 * Which expiry to trade: the nearest one (weekly), the nearest month-end one (monthly),
 * or a given `DD-MON-YYYY` date.
 *
 * @example
 * ```ts
 * const choice: ExpiryChoice = { date: '26-NOV-2026' };
 * ```
 */
export type ExpiryChoice = 'weekly' | 'monthly' | { readonly date: string };

/**
 * Day number (days since 1970-01-01) of a `DD-MON-YYYY` expiry; undefined if malformed.
 *
 * @example
 * ```ts
 * expiryDay('26-NOV-2026'); // 20783
 * ```
 */
export function expiryDay(text: string): number | undefined {
  const m = /^(\d{2})-([A-Z]{3})-(\d{4})$/.exec(text);
  if (m === null) return undefined;
  const month = MONTHS.indexOf(m[2] ?? '');
  if (month === -1) return undefined;
  const ms = Date.UTC(Number(m[3]), month, Number(m[1]));
  const check = new Date(ms);
  if (check.getUTCDate() !== Number(m[1]) || check.getUTCMonth() !== month) return undefined;
  return ms / DAY_MS;
}

/**
 * The nearest expiry on or after today (IST), e.g. this week's.
 *
 * @example
 * ```ts
 * nearestWeeklyExpiry(['26-NOV-2026', '03-DEC-2026'], Date.parse('2026-11-20T04:00:00Z')); // '26-NOV-2026'
 * ```
 */
export function nearestWeeklyExpiry(expiries: readonly string[], now: number): string | undefined {
  return upcoming(expiries, now)[0]?.text;
}

/**
 * The nearest monthly expiry on or after today (IST): the last listed expiry of its month.
 *
 * @example
 * ```ts
 * nearestMonthlyExpiry(['20-NOV-2026', '26-NOV-2026', '03-DEC-2026'], now); // '26-NOV-2026'
 * ```
 */
export function nearestMonthlyExpiry(expiries: readonly string[], now: number): string | undefined {
  const all = upcoming(expiries, Number.NEGATIVE_INFINITY);
  const lastOfMonth = new Map<string, { text: string; day: number }>();
  for (const e of all) lastOfMonth.set(e.text.slice(3), e);
  const today = Number.isFinite(now) ? istDayNumber(now) : Number.NEGATIVE_INFINITY;
  let best: { text: string; day: number } | undefined;
  for (const e of lastOfMonth.values()) {
    if (e.day >= today && (best === undefined || e.day < best.day)) best = e;
  }
  return best?.text;
}

/**
 * Resolves an {@link ExpiryChoice} against the listed expiries; undefined when none fits.
 *
 * @example
 * ```ts
 * selectExpiry(expiries, 'monthly', clock.now());
 * ```
 */
export function selectExpiry(
  expiries: readonly string[],
  choice: ExpiryChoice,
  now: number,
): string | undefined {
  if (choice === 'weekly') return nearestWeeklyExpiry(expiries, now);
  if (choice === 'monthly') return nearestMonthlyExpiry(expiries, now);
  return expiries.includes(choice.date) ? choice.date : undefined;
}

function upcoming(expiries: readonly string[], now: number): Array<{ text: string; day: number }> {
  const today = Number.isFinite(now) ? istDayNumber(now) : Number.NEGATIVE_INFINITY;
  const out: Array<{ text: string; day: number }> = [];
  for (const text of expiries) {
    const day = expiryDay(text);
    if (day !== undefined && day >= today) out.push({ text, day });
  }
  return out.sort((a, b) => a.day - b.day);
}
