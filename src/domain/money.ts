/**
 * Money inside tiqs-runner is integer paise (rupees × 100). The wire carries quotes in
 * paise and order prices as rupee decimal text; this module is the one place that
 * converts, with integer arithmetic only.
 */

/** An integer amount of paise. */
export type Paise = number;

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

/** Thrown for text or numbers that are not money. */
export class MoneyFormatError extends Error {
  override readonly name = 'MoneyFormatError';
}

/**
 * Parses rupee decimal text (`"801.90"`, `"801.9"`, `"801"`) into paise. Digits beyond
 * the second decimal are rounded half away from zero.
 *
 * @example
 * ```ts
 * parseRupees('801.90'); // 80190
 * ```
 */
export function parseRupees(text: string): Paise {
  const m = DECIMAL.exec(text.trim());
  if (m === null) throw new MoneyFormatError(`not a rupee amount: ${JSON.stringify(text)}`);
  const [, sign, whole = '0', frac = ''] = m;
  const padded = `${frac}00`;
  let paise = Number(whole) * 100 + Number(padded.slice(0, 2));
  const rest = padded.slice(2);
  if (rest.length > 0 && rest.charCodeAt(0) >= 53 /* '5' */) paise += 1;
  if (!Number.isSafeInteger(paise)) throw new MoneyFormatError(`amount out of range: ${text}`);
  return sign === '-' && paise !== 0 ? -paise : paise;
}

/**
 * Formats paise as rupee decimal text with `precision` digits after the point.
 *
 * @example
 * ```ts
 * formatRupees(80190); // "801.90"
 * formatRupees(5, 4); // "0.0500"
 * ```
 */
export function formatRupees(paise: Paise, precision = 2): string {
  assertPaise(paise);
  if (!Number.isInteger(precision) || precision < 0 || precision > 8) {
    throw new MoneyFormatError(`bad price precision: ${precision}`);
  }
  const negative = paise < 0;
  let abs = Math.abs(paise);
  if (precision < 2) {
    const unit = precision === 1 ? 10 : 100;
    abs = Math.round(abs / unit) * unit;
  }
  const whole = Math.trunc(abs / 100);
  const cents = String(abs % 100).padStart(2, '0');
  const frac = precision >= 2 ? cents + '0'.repeat(precision - 2) : cents.slice(0, precision);
  const body = precision === 0 ? String(whole) : `${whole}.${frac}`;
  return negative && abs !== 0 ? `-${body}` : body;
}

/**
 * Formats paise for people: `₹`, Indian digit grouping (thousands, then lakhs and crores
 * in twos) and two decimals. Only for human output: order prices on the wire use
 * {@link formatRupees}, which must never carry separators.
 *
 * @example
 * ```ts
 * formatInr(100_000_000); // "₹10,00,000.00"
 * formatInr(-123_456); // "-₹1,234.56"
 * ```
 */
export function formatInr(paise: Paise): string {
  const text = formatRupees(Math.abs(paise));
  const point = text.indexOf('.');
  const whole = text.slice(0, point);
  // The last three digits, then pairs: 1,23,45,678.
  const head = whole.slice(0, -3);
  const grouped =
    head === '' ? whole : `${head.replace(/\B(?=(\d{2})+$)/g, ',')},${whole.slice(-3)}`;
  return `${paise < 0 ? '-' : ''}₹${grouped}${text.slice(point)}`;
}

/** Throws unless `value` is a safe integer number of paise. */
function assertPaise(value: number): asserts value is Paise {
  if (!Number.isSafeInteger(value)) throw new MoneyFormatError(`not integer paise: ${value}`);
}

/** How {@link roundToTick} rounds. */
export type TickRounding = 'nearest' | 'down' | 'up';

/**
 * Rounds a price to a multiple of the tick size (both in paise).
 *
 * @example
 * ```ts
 * roundToTick(80193, 5); // 80195
 * roundToTick(80193, 5, 'down'); // 80190
 * ```
 */
export function roundToTick(paise: Paise, tick: Paise, mode: TickRounding = 'nearest'): Paise {
  assertPaise(paise);
  assertPaise(tick);
  if (tick <= 0) throw new MoneyFormatError(`tick size must be positive: ${tick}`);
  const below = Math.floor(paise / tick) * tick;
  if (below === paise) return paise;
  if (mode === 'down') return below;
  if (mode === 'up') return below + tick;
  return paise - below >= tick - (paise - below) ? below + tick : below;
}

/** True when `paise` is a whole multiple of `tick`. */
export function isOnTick(paise: Paise, tick: Paise): boolean {
  return tick > 0 && paise % tick === 0;
}

/** Value of `quantity` units at `price`, in paise. */
export function notional(price: Paise, quantity: number): Paise {
  const v = price * quantity;
  assertPaise(v);
  return v;
}
