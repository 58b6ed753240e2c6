import type { OrderEvent } from '../../domain/order-events.ts';
import type { OrderTracker } from '../order-tracker.ts';
import { addFill } from './bracket-store.ts';
import { type LegName, legOf } from './leg-ids.ts';
import type { LiveBracket } from './live-bracket.ts';

/** Failed modifications of a leg in a row before the bracket gives up and flattens. */
const MODIFY_ATTEMPTS = 3;

/** What following an event may do to a bracket. */
export interface BracketEventHooks {
  tracker: OrderTracker;
  /** The live bracket of a strategy's bracket id, if any. */
  find(strategyId: string, bracketId: string): LiveBracket | undefined;
  /** Queues the bracket's next step. */
  schedule(live: LiveBracket): void;
  /** The bracket's protection failed: flatten what it holds (see `syncBracket`). */
  fail(live: LiveBracket, reason: string): void;
  /** Stops managing the bracket (a leg cancelled by someone else): its other leg is cancelled. */
  end(live: LiveBracket, reason: string): void;
  /** Stopping, or resuming after a restart: a leg gone is not yet a failure. */
  quiet(): boolean;
}

/**
 * Follows one order event for the brackets: fills of the entry, the legs and the
 * market exit are counted, a leg's placement submitted records its tag, a leg denied or rejected makes
 * the bracket flatten (never a naked position), a failed modification is sent again
 * (at most {@link MODIFY_ATTEMPTS} times in a row), and a leg cancelled by someone else
 * ends the bracket.
 */
export function followEvent(e: OrderEvent, hooks: BracketEventHooks): void {
  const { bracket, part, modify } = legOf(e.intentId);
  const live = hooks.find(e.strategyId, bracket);
  if (live === undefined) return;
  if (part === 'exit') {
    // The market exit's fills count as the bracket's, so no step (nor a restart) exits again.
    if (e.type === 'OrderFilled' || e.type === 'OrderPartiallyFilled') {
      const side = hooks.tracker.byIntent(e.strategyId, e.intentId)?.intent.side;
      const back = side === live.record.intent.side;
      addFill(live.fills, part, e.fillId, e.fillQuantity, e.fillPrice, back);
      hooks.schedule(live);
    }
    return;
  }
  if (modify) {
    if (part !== 'entry' && (e.type === 'OrderDenied' || e.type === 'OrderRejected'))
      modifyFailed(live, part, e.reason, hooks);
    return;
  }
  switch (e.type) {
    case 'OrderSubmitted':
      if (part !== 'entry') {
        live.requested.delete(part);
        const leg = live.record.legs[part];
        if (leg?.intentId === e.intentId) leg.tag = e.tag;
      }
      return;
    case 'OrderPartiallyFilled':
    case 'OrderFilled':
      addFill(live.fills, part, e.fillId, e.fillQuantity, e.fillPrice);
      if (part === 'entry') live.record.extreme ??= e.fillPrice;
      hooks.schedule(live);
      return;
    case 'OrderDenied':
      if (part === 'entry') live.entryGone = true;
      else if (e.intent.kind === 'place') {
        live.requested.delete(part);
        hooks.fail(live, `its ${legName(part)} was denied: ${e.reason}`);
        return;
      }
      hooks.schedule(live);
      return;
    case 'OrderCancelled':
    case 'OrderRejected':
      if (part !== 'entry') legGone(live, part, e, hooks);
      else hooks.schedule(live);
      return;
    default:
      return;
  }
}

const legName = (part: LegName): string => (part === 'sl' ? 'stop' : 'target');

/**
 * A modification of a leg was refused: its order still stands as the broker last
 * confirmed it, and the next step (the next price or event, not at once, so a lasting
 * refusal cannot spin) sends it again; after {@link MODIFY_ATTEMPTS} the bracket fails.
 */
function modifyFailed(live: LiveBracket, part: LegName, reason: string, hooks: BracketEventHooks) {
  live.modifyFailures[part] += 1;
  if (live.modifyFailures[part] >= MODIFY_ATTEMPTS)
    hooks.fail(live, `its ${legName(part)} could not be modified: ${reason}`);
}

/** A leg's order ended without filling to the end: by our cancel, or by someone else's. */
function legGone(
  live: LiveBracket,
  part: LegName,
  e: OrderEvent & { tag: string },
  hooks: BracketEventHooks,
): void {
  const current = hooks.tracker.byIntent(e.strategyId, e.intentId);
  // An older order of the leg (cancelled by a cancel-and-replace), or an older placement.
  if (live.record.legs[part]?.intentId !== e.intentId || current?.tag !== e.tag) return;
  if (live.cancelling.has(e.tag) || hooks.quiet()) {
    // Ours, or while stopping or resuming: the next step re-places it if still needed.
    hooks.schedule(live);
    return;
  }
  if (e.type === 'OrderRejected')
    hooks.fail(live, `its ${legName(part)} was rejected: ${e.reason}`);
  else hooks.end(live, `its ${legName(part)} was cancelled outside the bracket`);
}
