import type { Paise } from '../../domain/money.ts';
import type { TransactionType } from '../../domain/order-params.ts';
import { isFinal, type TrackedOrder } from '../tracked-order.ts';
import { ensureLeg } from './bracket-legs.ts';
import {
  directionOf,
  entryAverage,
  inFavour,
  stopTrigger,
  targetPrice,
  trailingStep,
} from './bracket-record.ts';
import { exitIntentId, type LegName } from './leg-ids.ts';
import { cancel, type LiveBracket, type SyncDeps } from './live-bracket.ts';

/**
 * One step of a bracket: brings its orders in line with its fills. The quantity to
 * protect is what the entry filled less what the legs filled, at most the strategy's
 * position on the entry's side (a square-off or a manual exit elsewhere counts). Each
 * leg is placed for it, or modified to it (its own fills plus that quantity), at its
 * price; a leg's fill shrinks the other, an exit cancels the entry's unfilled rest, and
 * with nothing left to protect the legs are cancelled (one-cancels-other). A failed
 * bracket, or one whose legs both filled, cancels its orders and then exits at market.
 */
export async function syncBracket(live: LiveBracket, deps: SyncDeps): Promise<void> {
  const { core } = deps;
  const { record, fills } = live;
  const { intent, strategyId } = record;
  const entry = core.tracker.byIntent(strategyId, intent.id);
  const entryWorking =
    entry === undefined ? !(live.entryGone || live.restored === true) : !isFinal(entry.status);
  // The market exit counts too (negative for a buy-back), so it never runs twice.
  const exited = fills.exits.sl + fills.exits.tp + fills.market;
  const dir = directionOf(intent);
  const position = core.positions.position(strategyId, intent.instrument.token)?.netQuantity ?? 0;
  const open = Math.max(0, Math.min(fills.entryQuantity - exited, dir * position));
  const working = (leg: LegName): TrackedOrder | undefined => {
    const id = record.legs[leg]?.intentId;
    const order = id === undefined ? undefined : core.tracker.byIntent(strategyId, id);
    return order !== undefined && !isFinal(order.status) ? order : undefined;
  };
  const excess = exited - fills.entryQuantity;
  if (live.failure !== undefined || excess > 0) {
    const orders = [entryWorking ? entry : undefined, working('sl'), working('tp')];
    if (!(await cancelAll(live, orders, deps)) || live.requested.size > 0) return;
    // The bracket ends only once its exit is out: one denied or deferred leaves it failed,
    // and the next step (an event or a price) tries again, so the position is never naked.
    if (live.failure !== undefined) {
      if (await exitAtMarket(live, intent.side === 'B' ? 'S' : 'B', open, deps))
        deps.finish(`flattened: ${live.failure}`, 'error');
    } else {
      // Both legs filled (a one-cancels-other race at the exchange): the position went
      // past flat by the excess; buy (or sell) it back, never past flat the other way.
      const back = Math.min(excess, Math.max(0, -dir * position));
      if (await exitAtMarket(live, intent.side, back, deps))
        deps.finish(`both legs filled: ${excess} bought back past flat`, 'error');
    }
    return;
  }
  if (exited > 0 && entryWorking && entry !== undefined) await cancel(live, entry, deps);
  if (open === 0) {
    // Nothing to protect: once the entry can fill no more, or an exit has run, the legs go.
    if (entryWorking && exited === 0) return;
    const legs = (['sl', 'tp'] as const).map(working).filter((o) => o !== undefined);
    for (const order of legs) await cancel(live, order, deps);
    if (legs.length === 0 && live.requested.size === 0 && !entryWorking)
      deps.finish(
        exited > 0
          ? 'exited'
          : fills.entryQuantity > 0
            ? 'the position was closed outside the bracket'
            : 'the entry did not fill',
      );
    return;
  }
  const average = entryAverage(fills) as Paise;
  const tick = intent.instrument.tickSize ?? 5;
  let stop = stopTrigger(intent, average, record.extreme, tick);
  const current = record.legs.sl;
  if (intent.trailing !== undefined && current !== undefined) {
    // Trailing moves the stop in favour only, by at least its step, and never to a
    // price already passed.
    const passed = deps.lastPrice !== undefined && dir * (deps.lastPrice - stop) <= 0;
    const step = trailingStep(intent, tick);
    if (!inFavour(intent, current.price, stop) || passed || dir * (stop - current.price) < step)
      stop = current.price;
  }
  await ensureLeg(live, 'sl', open, stop, working('sl'), deps);
  if (live.failure !== undefined) return;
  const target = targetPrice(intent, average, tick);
  if (target !== undefined) await ensureLeg(live, 'tp', open, target, working('tp'), deps);
}

/** Asks to cancel each order still working; true once none is. */
async function cancelAll(
  live: LiveBracket,
  orders: ReadonlyArray<TrackedOrder | undefined>,
  deps: SyncDeps,
): Promise<boolean> {
  const left = orders.filter((o) => o !== undefined);
  for (const order of left) await cancel(live, order, deps);
  return left.length === 0;
}

/**
 * Places the framework's market exit for what the bracket holds (or holds too much);
 * true once nothing is left to exit or the exit's order stands (false: denied or deferred).
 */
async function exitAtMarket(
  live: LiveBracket,
  side: TransactionType,
  quantity: number,
  deps: SyncDeps,
): Promise<boolean> {
  if (quantity <= 0) return true;
  const { intent, strategyId } = live.record;
  const placed = () =>
    deps.core.tracker.byIntent(strategyId, exitIntentId(intent.id)) !== undefined;
  // One exit per bracket: one already placed (by this run, or by one a restart cut
  // short before the journal's brackets were saved) is not placed again.
  if (placed()) return true;
  const exit = {
    kind: 'place',
    strategyId,
    id: exitIntentId(intent.id),
    instrument: intent.instrument,
    side,
    quantity,
    orderType: 'MKT',
    product: intent.product,
    reason: `bracket ${intent.id}: exit (${live.failure ?? 'both legs filled'})`,
  } as const;
  try {
    // A system order: past the trading window and the daily count, as any exit.
    await deps.core.place(exit, undefined, true);
  } catch (err) {
    deps.core.onBrokerError(exit, err);
  }
  if (placed()) return true;
  deps.core.options.logger.error(
    { strategyId, bracket: intent.id, quantity },
    'bracket exit not placed (denied or deferred): the position stays open; trying again at the next step',
  );
  return false;
}

/**
 * A new last price of the bracket's instrument: records the trailing extreme and tells
 * whether a step is due (a refused modification to send again, or the trailing stop a
 * full step behind its place).
 */
export function wantsStep(live: LiveBracket, ltp: Paise): boolean {
  const { record, fills } = live;
  const { intent } = record;
  if (live.modifyFailures.sl + live.modifyFailures.tp > 0) return true;
  // A failed bracket (or one past flat) whose exit did not go out tries again.
  const exited = fills.exits.sl + fills.exits.tp + fills.market;
  if (live.failure !== undefined || exited > fills.entryQuantity) return true;
  const average = entryAverage(fills);
  const stop = record.legs.sl;
  if (intent.trailing === undefined || average === undefined || stop === undefined) return false;
  const dir = directionOf(intent);
  if (dir * (ltp - (record.extreme ?? average)) > 0) record.extreme = ltp;
  const tick = intent.instrument.tickSize ?? 5;
  const next = stopTrigger(intent, average, record.extreme, tick);
  return dir * (next - stop.price) >= trailingStep(intent, tick);
}
