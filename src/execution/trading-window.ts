import type { PlaceIntent } from '../domain/intents.ts';
import { IST_OFFSET_MS } from '../domain/ist.ts';
import type { MarketSessions } from '../domain/market-sessions.ts';

/** `HH:MM` IST of an instant, for a denial's reason. */
function istClock(at: number): string {
  return new Date(at + IST_OFFSET_MS).toISOString().slice(11, 16);
}

/**
 * Whether `intent` is an exit: it reduces `position` (the strategy's net quantity in the
 * instrument, counting what its working orders will still add) without reversing it.
 */
function isExit(intent: Pick<PlaceIntent, 'side' | 'quantity'>, position: number): boolean {
  const signed = intent.side === 'B' ? intent.quantity : -intent.quantity;
  return (
    position !== 0 &&
    Math.sign(signed) !== Math.sign(position) &&
    Math.abs(signed) <= Math.abs(position)
  );
}

/**
 * Why an intraday entry may not be placed now, if it may not: from the square-off time
 * (`minutesBeforeClose` before the close of the session running at `now`, or of the next
 * one) to that close, new intraday (`product: 'I'`) entries are denied, as the
 * framework is squaring intraday positions off. Exits always pass, and so does any order
 * that is not intraday. `position` is the strategy's intraday position in the instrument
 * (or a function giving it, read only past the square-off time), counting its working
 * orders, so an exit sent in the same instant as the square-off's (which would reverse
 * the position) is an entry, and so is an intraday sell against a delivery holding.
 *
 * @example
 * ```ts
 * tradingWindowDenial(buy, 0, Date.parse('2026-11-20T15:21:00+05:30'), calendar, 10);
 * // 'intraday entry after the square-off time (15:20 IST, 10 min before the close): only exits pass'
 * ```
 */
export function tradingWindowDenial(
  intent: Pick<PlaceIntent, 'side' | 'quantity' | 'product'>,
  position: number | (() => number),
  now: number,
  sessions: MarketSessions,
  minutesBeforeClose: number | undefined,
): string | undefined {
  if (minutesBeforeClose === undefined || intent.product !== 'I') return undefined;
  const close = sessions.nextClose(now);
  if (close === undefined) return undefined;
  const cutoff = close - minutesBeforeClose * 60_000;
  if (now < cutoff) return undefined;
  if (isExit(intent, typeof position === 'number' ? position : position())) return undefined;
  return `intraday entry after the square-off time (${istClock(cutoff)} IST, ${minutesBeforeClose} min before the close): only exits pass`;
}
