import type { PlaceIntent, SquareOffIntent } from '../domain/intents.ts';
import type { EngineCore } from './engine-core.ts';
import { exitSlices } from './exit-slices.ts';
import type { TrackedOrder } from './tracked-order.ts';

/**
 * Closes a strategy's positions (in one instrument, or all): cancels its working
 * orders, then places a market exit for each instrument's net quantity, counting
 * placements not yet answered (they cannot be cancelled but may still fill), in slices
 * within the per-order limits (`exit-slices.ts`). An exit the broker refuses is tried
 * again (see `exit-retries.ts`).
 */
export async function squareOff(
  core: EngineCore,
  intent: SquareOffIntent & { strategyId: string },
): Promise<void> {
  const inScope = (o: TrackedOrder) =>
    o.strategyId === intent.strategyId &&
    (intent.token === undefined || o.intent.instrument.token === intent.token);
  for (const o of core.tracker.active().filter(inScope)) await core.requestCancel(o);
  const tokens = new Set(
    [
      ...core.positions.positions(intent.strategyId).map((p) => p.token),
      ...core.tracker
        .active()
        .filter(inScope)
        .map((o) => o.intent.instrument.token),
    ].filter((t) => intent.token === undefined || t === intent.token),
  );
  for (const token of tokens) {
    const position = core.positions.position(intent.strategyId, token)?.netQuantity ?? 0;
    // Placements not yet answered cannot be cancelled; what they may still add counts.
    const unanswered = core.tracker
      .active()
      .filter((o) => inScope(o) && o.intent.instrument.token === token && o.orderId === undefined)
      .reduce(
        (sum, o) => sum + (o.intent.side === 'B' ? 1 : -1) * (o.quantity - o.filledQuantity),
        0,
      );
    const net = position + unanswered;
    if (net === 0) continue;
    const source = core.tracker
      .all()
      .find((o) => o.strategyId === intent.strategyId && o.intent.instrument.token === token);
    if (source === undefined) continue;
    const instrument = source.intent.instrument;
    // Within the per-order limits, or a large position's exit would be denied whole.
    const slices = exitSlices(
      Math.abs(net),
      instrument.lotSize ?? 1,
      core.options.quote?.(token),
      core.limits,
    );
    for (const [i, quantity] of slices.entries()) {
      const exit: PlaceIntent & { strategyId: string } = {
        kind: 'place',
        strategyId: intent.strategyId,
        // `<id>:<token>`, then `<id>:<token>.2`, … for the further slices.
        id: i === 0 ? `${intent.id}:${token}` : `${intent.id}:${token}.${i + 1}`,
        instrument,
        side: net > 0 ? 'S' : 'B',
        quantity,
        orderType: 'MKT',
        product: source.intent.product,
        reason: intent.reason ?? 'square off',
      };
      core.watchExit(intent, exit.id, token);
      // One slice's or instrument's failure must not leave the others open.
      try {
        await core.place(exit, undefined, true);
      } catch (err) {
        core.onBrokerError(exit, err);
      }
    }
  }
}
