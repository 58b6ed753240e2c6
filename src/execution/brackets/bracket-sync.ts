import { SessionError } from '../../api/errors/session-error.ts';
import type { RoutedIntent } from '../../domain/intents.ts';
import type { Paise } from '../../domain/money.ts';
import type { EngineCore } from '../engine-core.ts';
import { isFinal, type TrackedOrder } from '../tracked-order.ts';
import {
  type BracketFills,
  type BracketRecord,
  directionOf,
  entryAverage,
  inFavour,
  stopTrigger,
  targetPrice,
} from './bracket-record.ts';
import { type LegName, legIntentId } from './leg-ids.ts';

/** A bracket as the manager holds it while it runs. */
export interface LiveBracket {
  record: BracketRecord;
  fills: BracketFills;
  /** Legs whose placement was asked for and is not yet submitted or denied. */
  requested: Set<LegName>;
  /** Tags of leg orders the manager asked to cancel (one-cancels-other, nothing left). */
  cancelling: Set<string>;
  /** The entry was denied (or its deferred placement was lost with a restart). */
  entryGone: boolean;
  /** Reloaded from the journal by this run. */
  restored?: boolean;
  /** A step is queued on `chain`. */
  queued: boolean;
  chain: Promise<void>;
}

/** What one step needs. */
export interface SyncDeps {
  core: EngineCore;
  submit(intent: RoutedIntent): Promise<void>;
  /** The instrument's last price, if any arrived. */
  lastPrice: Paise | undefined;
  save(): void;
  /** The bracket has nothing left to manage. */
  finish(reason: string): void;
}

/**
 * One step of a bracket: brings its orders in line with its fills. The quantity to
 * protect is what the entry filled less what the legs filled, at most the strategy's
 * position on the entry's side (a square-off or a manual exit elsewhere counts). Each
 * leg is placed for it, or modified to it (its own fills plus that quantity), at its
 * price; a leg's fill shrinks the other, an exit cancels the entry's unfilled rest, and
 * with nothing left to protect the legs are cancelled (one-cancels-other).
 */
export async function syncBracket(live: LiveBracket, deps: SyncDeps): Promise<void> {
  const { core } = deps;
  const { record, fills } = live;
  const { intent, strategyId } = record;
  const entry = core.tracker.byIntent(strategyId, intent.id);
  const entryWorking =
    entry === undefined ? !(live.entryGone || live.restored === true) : !isFinal(entry.status);
  const exited = fills.exits.sl + fills.exits.tp;
  const dir = directionOf(intent);
  const position =
    core.positions.positions(strategyId).find((p) => p.token === intent.instrument.token)
      ?.netQuantity ?? 0;
  const open = Math.max(0, Math.min(fills.entryQuantity - exited, dir * position));
  if (exited > 0 && entryWorking && entry !== undefined) await cancel(live, entry, deps);
  const working = (leg: LegName): TrackedOrder | undefined => {
    const id = record.legs[leg]?.intentId;
    const order = id === undefined ? undefined : core.tracker.byIntent(strategyId, id);
    return order !== undefined && !isFinal(order.status) ? order : undefined;
  };
  if (open === 0) {
    // Nothing to protect: once the entry can fill no more, or an exit has run, the legs go.
    if (entryWorking && exited === 0) return;
    const legs = (['sl', 'tp'] as const).map(working).filter((o) => o !== undefined);
    for (const order of legs) await cancel(live, order, deps);
    if (legs.length === 0 && live.requested.size === 0 && !entryWorking)
      deps.finish(exited > 0 ? 'exited' : 'the entry did not fill');
    return;
  }
  const average = entryAverage(fills) as Paise;
  const tick = intent.instrument.tickSize ?? 5;
  let stop = stopTrigger(intent, average, record.extreme, tick);
  const current = record.legs.sl;
  if (intent.trailing !== undefined && current !== undefined) {
    // Trailing moves the stop in favour only, and never to a price already passed.
    const passed = deps.lastPrice !== undefined && dir * (deps.lastPrice - stop) <= 0;
    if (!inFavour(intent, current.price, stop) || passed) stop = current.price;
  }
  await ensureLeg(live, 'sl', open, stop, working('sl'), deps);
  const target = targetPrice(intent, average, tick);
  if (target !== undefined) await ensureLeg(live, 'tp', open, target, working('tp'), deps);
}

/** Places a leg for `open`, or brings its working order to `open` more and `price`. */
async function ensureLeg(
  live: LiveBracket,
  leg: LegName,
  open: number,
  price: Paise,
  order: TrackedOrder | undefined,
  deps: SyncDeps,
): Promise<void> {
  if (live.requested.has(leg)) return;
  const { record } = live;
  const { intent, strategyId } = record;
  const field = leg === 'sl' ? 'triggerPrice' : 'price';
  const known = record.legs[leg];
  if (order === undefined) {
    const generation = (known?.generation ?? 0) + 1;
    const id = legIntentId(intent.id, leg, generation);
    record.legs[leg] = { intentId: id, generation, quantity: open, price };
    live.requested.add(leg);
    deps.save();
    await deps.submit({
      kind: 'place',
      strategyId,
      id,
      instrument: intent.instrument,
      side: intent.side === 'B' ? 'S' : 'B',
      quantity: open,
      orderType: leg === 'sl' ? 'SL-MKT' : 'LMT',
      [field]: price,
      product: intent.product,
      reason: `bracket ${intent.id}: ${leg === 'sl' ? 'stop' : 'target'}`,
    });
    return;
  }
  if (known === undefined) return;
  if (known.tag !== order.tag) {
    // A cancel-and-replace (past the modification limit) put a new order under the leg.
    known.tag = order.tag;
    known.quantity = order.quantity;
    known.price = order.intent[field] ?? known.price;
  }
  const quantity = order.filledQuantity + open;
  if (quantity === known.quantity && price === known.price) return;
  known.quantity = quantity;
  known.price = price;
  deps.save();
  await deps.submit({
    kind: 'modify',
    strategyId,
    id: `${known.intentId}~m`,
    target: known.intentId,
    quantity,
    [field]: price,
    reason: `bracket ${intent.id}: ${leg === 'sl' ? 'stop' : 'target'} follows`,
  });
}

/** Asks once to cancel one of the bracket's orders (the engine's own cancel path). */
async function cancel(live: LiveBracket, order: TrackedOrder, deps: SyncDeps): Promise<void> {
  if (order.cancelRequested === true || order.orderId === undefined) return;
  live.cancelling.add(order.tag);
  try {
    await deps.core.requestCancel(order);
  } catch (err) {
    if (err instanceof SessionError) deps.core.pause(err);
    else throw err;
  }
}
