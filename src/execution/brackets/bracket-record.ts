import type { BracketIntent, BracketLevel } from '../../domain/intents.ts';
import { type Paise, roundToTick } from '../../domain/money.ts';
import type { LegName } from './leg-ids.ts';

/** One exit leg as the manager last asked for it. */
interface LegRecord {
  /** Intent id of the leg's current placement (see `legIntentId`). */
  intentId: string;
  /** Placements of this leg so far (1 for `<id>/sl`); a re-placement takes the next id. */
  generation: number;
  /** Total quantity last asked of the current order (its fills included). */
  quantity: number;
  /** Trigger price (stop) or limit price (target) last asked, paise. */
  price: Paise;
  /** Tag of the order these fields describe; another tag means a re-placed order. */
  tag?: string;
}

/**
 * What the manager keeps of one bracket, in the journal (meta `brackets`) after every
 * change. Fills are not kept here: they are rebuilt from the journal's fills at start,
 * so a crash between a fill and this record loses nothing.
 */
export interface BracketRecord {
  strategyId: string;
  intent: BracketIntent;
  /** Best price since the entry filled: highest for a long, lowest for a short. */
  extreme?: Paise;
  legs: Partial<Record<LegName, LegRecord>>;
}

/** Fills of a bracket, counted from its orders' fill events (and the journal at start). */
export interface BracketFills {
  entryQuantity: number;
  /** Sum of quantity × price over the entry's fills, for the average. */
  entryValue: number;
  exits: Record<LegName, number>;
  /**
   * Net quantity the bracket's market exit (`<id>/exit`) closed: a buy-back past flat
   * counts negative. Counted, so a restart does not exit (or buy back) again.
   */
  market: number;
  /** Fill ids already counted. */
  seen: Set<string>;
}

/** +1 for a long bracket (entry buys), -1 for a short one. */
export const directionOf = (intent: BracketIntent): 1 | -1 => (intent.side === 'B' ? 1 : -1);

/** Average entry price, paise (rounded), or undefined before the first fill. */
export function entryAverage(fills: BracketFills): Paise | undefined {
  return fills.entryQuantity === 0 ? undefined : Math.round(fills.entryValue / fills.entryQuantity);
}

const levelPrice = (level: BracketLevel, average: Paise, sign: 1 | -1): Paise =>
  'price' in level ? level.price : average + sign * level.points;

/**
 * The stop's trigger for an entry averaging `average`, with the best price `extreme`:
 * the stop level, raised (for a long; lowered for a short) to `extreme - trailing` when
 * trailing. On the tick, rounded away from the price, never tighter than asked.
 *
 * @example
 * ```ts
 * stopTrigger(long, 80_000, 81_000, 5); // stopLoss 400, trailing 300 → 80_700
 * ```
 */
export function stopTrigger(
  intent: BracketIntent,
  average: Paise,
  extreme: Paise | undefined,
  tick: Paise,
): Paise {
  const dir = directionOf(intent);
  let stop = levelPrice(intent.stopLoss, average, dir === 1 ? -1 : 1);
  if (intent.trailing !== undefined && extreme !== undefined) {
    const trailed = extreme - dir * intent.trailing.points;
    stop = dir === 1 ? Math.max(stop, trailed) : Math.min(stop, trailed);
  }
  return roundToTick(Math.max(tick, stop), tick, dir === 1 ? 'down' : 'up');
}

/** The target's limit price, on the tick, rounded away from the price (never closer than asked). */
export function targetPrice(intent: BracketIntent, average: Paise, tick: Paise): Paise | undefined {
  if (intent.target === undefined) return undefined;
  const dir = directionOf(intent);
  const price = levelPrice(intent.target, average, dir);
  return roundToTick(Math.max(tick, price), tick, dir === 1 ? 'up' : 'down');
}

/**
 * Whether moving the stop from `current` to `next` is in the position's favour (up for a
 * long, down for a short).
 */
export const inFavour = (intent: BracketIntent, current: Paise, next: Paise): boolean =>
  directionOf(intent) === 1 ? next > current : next < current;

/**
 * The least a trailing stop moves at a time: a tenth of the trailing distance, on the
 * tick, and at least one tick. Each move is a modification (the service allows 25 per
 * order, then the leg is cancelled and placed anew, unprotected for a poll); moving on
 * every tick would spend them in minutes on a liquid stock, while a tenth of the
 * distance leaves the stop at most that much behind its ideal place.
 *
 * @example
 * ```ts
 * trailingStep(withTrailing300, 5); // 30
 * ```
 */
export function trailingStep(intent: BracketIntent, tick: Paise): Paise {
  if (intent.trailing === undefined) return tick;
  return Math.max(tick, roundToTick(intent.trailing.points / 10, tick, 'down'));
}
