import type { Instrument, PlaceIntent, SquareOffIntent } from '../domain/intents.ts';
import type { Product } from '../domain/order-params.ts';
import type { EngineCore } from './engine-core.ts';
import { exitSlices, isSquareOffExit } from './exit-slices.ts';
import type { TrackedOrder } from './tracked-order.ts';

/**
 * Closes a strategy's positions (in one instrument, or all): cancels its working
 * orders, then places a market exit for each instrument's net quantity, counting
 * placements not yet answered (they cannot be cancelled but may still fill), in slices
 * within the per-order limits (`exit-slices.ts`). An exit the broker refuses is tried
 * again (see `exit-retries.ts`).
 */
export function squareOff(
  core: EngineCore,
  intent: SquareOffIntent & { strategyId: string },
): Promise<void> {
  // One square-off of a strategy at a time: the next one sees every slice of the one
  // before it as working (two at once, each sizing from the other's unsent slices,
  // would close the position twice).
  let queues = running.get(core);
  if (queues === undefined) {
    queues = new Map();
    running.set(core, queues);
  }
  const before = queues.get(intent.strategyId) ?? Promise.resolve();
  const mine = before.then(() => closePositions(core, intent));
  const settled = mine.catch(() => undefined);
  queues.set(intent.strategyId, settled);
  const chains = queues;
  void settled.then(() => {
    if (chains.get(intent.strategyId) === settled) chains.delete(intent.strategyId);
  });
  return mine;
}

/** The square-off of each strategy under way, per engine. */
const running = new WeakMap<EngineCore, Map<string, Promise<void>>>();

async function closePositions(
  core: EngineCore,
  intent: SquareOffIntent & { strategyId: string },
): Promise<void> {
  // With a product (the square-off before the close: `I`), only that product's orders
  // and quantity: a delivery holding of the same strategy stays.
  const { product } = intent;
  const inScope = (o: TrackedOrder) =>
    o.strategyId === intent.strategyId &&
    (intent.token === undefined || o.intent.instrument.token === intent.token) &&
    (product === undefined || o.intent.product === product);
  // Another square-off's exits are left to work: they are counted below instead.
  for (const o of core.tracker.active().filter(inScope))
    if (!isSquareOffExit(o)) await core.requestCancel(o);
  const tokens = new Set(
    [
      // A part open in any product (a flat net may be an intraday short against a holding).
      ...core.positions
        .positions(intent.strategyId)
        .filter(
          (p) =>
            core.positions.quantityOf(intent.strategyId, p.token, product) !== 0 ||
            (product === undefined &&
              core.positions.quantityOf(intent.strategyId, p.token, 'I') !== 0),
        )
        .map((p) => p.token),
      ...core.tracker
        .active()
        .filter(inScope)
        .map((o) => o.intent.instrument.token),
    ].filter((t) => intent.token === undefined || t === intent.token),
  );
  for (const token of tokens) {
    // The strategy's orders in the instrument: its terms, and the products it traded.
    const ordered = core.tracker
      .all()
      .filter((o) => o.strategyId === intent.strategyId && o.intent.instrument.token === token);
    const instrument = ordered[0]?.intent.instrument;
    if (instrument === undefined) continue;
    // Every exit of this token's square-off, across its products' parts and slices.
    let k = 0;
    for (const [part, position] of partsOf(core, intent.strategyId, token, product, ordered)) {
      const exits = exitsFor(core, intent, instrument, part, position);
      for (const exit of exits) {
        // `<id>:<token>`, then `<id>:<token>.2`, … for the further exits.
        exit.id = k === 0 ? `${intent.id}:${token}` : `${intent.id}:${token}.${k + 1}`;
        k += 1;
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
}

/**
 * The parts of a strategy's position in `token` a square-off closes, each product with
 * its quantity and its own exit (the broker keeps an intraday position apart from a
 * carried one): `product`'s alone when the square-off has one; else the intraday part
 * and the carried one.
 */
function partsOf(
  core: EngineCore,
  strategyId: string,
  token: number,
  product: Product | undefined,
  ordered: readonly TrackedOrder[],
): Array<[Product, number]> {
  const { positions } = core;
  if (product !== undefined) return [[product, positions.quantityOf(strategyId, token, product)]];
  // The carried product is the one its orders used (a token is equity or F&O); a part
  // no order names (fills whose order is unknown) goes out as the first order's.
  const carried =
    ordered.find((o) => o.intent.product !== 'I')?.intent.product ??
    ordered[0]?.intent.product ??
    'C';
  // Only intraday orders: the whole net is the intraday exit's.
  if (carried === 'I') return [['I', positions.quantityOf(strategyId, token)]];
  return [
    ['I', positions.quantityOf(strategyId, token, 'I')],
    [carried, positions.quantityOf(strategyId, token, carried)],
  ];
}

/**
 * The exits (their ids set by the caller) that take one product's part of the position
 * in `token`, `position`, to flat, counting placements not yet answered and other
 * square-offs' exits of that product still working, in slices within the per-order
 * limits.
 */
function exitsFor(
  core: EngineCore,
  intent: SquareOffIntent & { strategyId: string },
  instrument: Instrument,
  product: Product,
  position: number,
): Array<PlaceIntent & { strategyId: string }> {
  const { strategyId } = intent;
  const { token } = instrument;
  const ofPart = (o: TrackedOrder) =>
    o.strategyId === strategyId &&
    o.intent.instrument.token === token &&
    o.intent.product === product;
  // Placements not yet answered cannot be cancelled, and other square-offs' exits are
  // left to work: what they may still add counts.
  const unanswered = core.tracker
    .active()
    .filter((o) => ofPart(o) && (o.orderId === undefined || isSquareOffExit(o)))
    .reduce(
      (sum, o) => sum + (o.intent.side === 'B' ? 1 : -1) * (o.quantity - o.filledQuantity),
      0,
    );
  const net = position + unanswered;
  if (net === 0) return [];
  // Within the per-order limits, or a large position's exit would be denied whole.
  const slices = exitSlices(
    Math.abs(net),
    instrument.lotSize ?? 1,
    core.options.quote?.(token),
    core.limits,
  );
  return slices.map((quantity) => ({
    kind: 'place',
    strategyId,
    id: '',
    instrument,
    side: net > 0 ? 'S' : 'B',
    quantity,
    orderType: 'MKT',
    product,
    reason: intent.reason ?? 'square off',
  }));
}
