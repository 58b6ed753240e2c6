import type { Logger } from 'pino';
import type { Position } from '../domain/order-events.ts';
import {
  type ClassifyOptions,
  classifyWorkingOrders,
  groupKey,
  isStop,
  type OrderRole,
  ordersToCancel,
  type ShutdownPolicy,
} from './shutdown-policy.ts';
import type { TrackedOrder } from './tracked-order.ts';
import { untilAborted } from './until-aborted.ts';

/** What became of one cancel request. */
export type CancelAttempt =
  /** The service took it; the next book read confirms. */
  | 'sent'
  /** No readable answer (time-out, dropped, malformed): the book read tells. */
  | 'unknown'
  /** The service refused it (e.g. the order was already final). */
  | 'failed'
  /** The session was refused (401/403): nothing more can be sent. */
  | 'session-refused';

/** What {@link runShutdown} needs from the engine. */
export interface ShutdownPort {
  readonly logger: Logger;
  /** Placements sent and not yet answered. */
  inFlight(): number;
  /** Resolves once every placement under way has its answer. */
  settleSubmissions(): Promise<unknown>;
  /** One read of the order and trade books; true when both were read. */
  readBooks(): Promise<boolean>;
  /** Orders not yet final. */
  active(): TrackedOrder[];
  netPosition(strategyId: string, token: number): number;
  /** Quantity the parent of a cover stop leg has filled, by either book (any state). */
  parentFilled?(leg: TrackedOrder): number;
  positions(): Position[];
  /** Attempts the stop counted as not placed (outcome unknown, absent from the book). */
  notPlaced?(): TrackedOrder[];
  cancel(order: TrackedOrder, signal: AbortSignal): Promise<CancelAttempt>;
  /** Places market exits for a strategy's position in one instrument. */
  squareOff(strategyId: string, token: number, id: string): Promise<void>;
  /** Resolves after `ms` of the engine's clock, or at once on abort. */
  wait(ms: number, signal: AbortSignal): Promise<void>;
}

/** One order still working at the broker when the stop ended. */
interface OpenOrderAtStop {
  order: TrackedOrder;
  role: OrderRole;
}

/** Where things stand at the broker once a stop has done what it could. */
export interface ShutdownReport {
  policy: ShutdownPolicy;
  /** Non-zero positions, by strategy and instrument. */
  positions: Position[];
  /** Orders not final (those without a service id have an unknown outcome). */
  orders: OpenOrderAtStop[];
  /** What the stop could not finish within its budget, in words. */
  unfinished: string[];
  /** Whether the last read of the books succeeded: the report is the broker's view. */
  booksRead: boolean;
}

/** Intent ids of the exits a `flatten` stop places start with this. */
export const SHUTDOWN_INTENT_PREFIX = 'shutdown-';
/** Cancels sent per order before the stop gives up on it. */
const MAX_CANCELS = 5;
/** Exits placed per instrument before the stop gives up on it. */
const MAX_EXITS = 2;
/** Rounds of act, read, wait and read before a stop gives up (40 × 500 ms ≈ 20 s). */
const DEFAULT_MAX_ROUNDS = 40;

const isExit = (o: TrackedOrder): boolean => o.intentId.startsWith(SHUTDOWN_INTENT_PREFIX);

/**
 * Carries out a shutdown policy within the budget `signal` sets:
 *
 * 1. waits for placements under way to be answered;
 * 2. reads the books (fills, orders found by tag, cover stop legs);
 * 3. cancels what the policy says (see {@link classifyWorkingOrders}) and, for `flatten`,
 *    squares off each instrument once none of its orders is working;
 * 4. reads the books again and re-sends a cancel the book does not show done (an
 *    unreadable answer included), `retryMs` apart, until everything is final or the
 *    budget ends;
 * 5. reports what is still open at the broker.
 */
export async function runShutdown(
  port: ShutdownPort,
  policy: ShutdownPolicy,
  options: { signal: AbortSignal; retryMs: number; now: () => number; maxRounds?: number },
): Promise<ShutdownReport> {
  const { signal, retryMs } = options;
  const maxRounds = options.maxRounds ?? DEFAULT_MAX_ROUNDS;
  const log = port.logger;
  const unfinished: string[] = [];
  const cancels = new Map<TrackedOrder, number>();
  const exits = new Map<string, number>();
  let refused = false;

  const pending = port.inFlight();
  if (pending > 0) {
    log.info({ placements: pending }, 'stopping: waiting for placements under way');
    const settled = await untilAborted(port.settleSubmissions(), signal);
    if (!settled.done) unfinished.push(`${port.inFlight()} placement(s) still awaiting an answer`);
  }
  const read = async (): Promise<boolean> => {
    const r = await untilAborted(port.readBooks(), signal);
    return r.done && r.value;
  };
  let booksRead = await read();
  // Until one read succeeds the position is not known: every stop is kept.
  let everRead = booksRead;
  const classifyOptions = (): ClassifyOptions => ({
    keepStops: !everRead,
    ...(port.parentFilled === undefined
      ? {}
      : { parentFilled: (leg) => port.parentFilled?.(leg) ?? 0 }),
  });

  /** Working orders the policy cancels (only those with a service id can be). */
  const targets = (): TrackedOrder[] => {
    if (policy === 'leave') return [];
    const active = port.active();
    return ordersToCancel(policy, active, port.netPosition, classifyOptions()).filter(
      (o) => o.orderId !== undefined && !isExit(o),
    );
  };
  /** Instruments a `flatten` stop still has to close: a position and nothing working. */
  const toClose = (): Position[] => {
    if (policy !== 'flatten') return [];
    const busy = new Set(
      port.active().map((o) => groupKey(o.strategyId, o.intent.instrument.token)),
    );
    return port
      .positions()
      .filter((p) => p.netQuantity !== 0 && !busy.has(groupKey(p.strategyId, p.token)));
  };
  /**
   * Every order the policy cancels is final and, for `flatten`, every position closed.
   * A `flatten` also waits for placements of unknown outcome (no service id): until the
   * book shows them, or shows them absent past the grace period (then they count as not
   * placed), their instrument cannot be squared off safely.
   */
  const settled = (): boolean =>
    targets().length === 0 &&
    (policy !== 'flatten' ||
      // Until a read succeeds the stops are kept (see classifyOptions): keep reading.
      (everRead &&
        port.active().every((o) => !isExit(o) && o.orderId !== undefined) &&
        toClose().length === 0));

  const act = async (): Promise<void> => {
    for (const order of targets()) {
      const sent = cancels.get(order) ?? 0;
      if (sent >= MAX_CANCELS || signal.aborted || refused) continue;
      cancels.set(order, sent + 1);
      const outcome = await port.cancel(order, signal);
      if (outcome === 'session-refused') refused = true;
    }
    for (const p of toClose()) {
      const key = groupKey(p.strategyId, p.token);
      const placed = exits.get(key) ?? 0;
      if (placed >= MAX_EXITS || signal.aborted || refused) continue;
      exits.set(key, placed + 1);
      log.info(
        { strategy: p.strategyId, symbol: p.symbol, quantity: p.netQuantity },
        'stopping: squaring off',
      );
      await untilAborted(
        port.squareOff(p.strategyId, p.token, `${SHUTDOWN_INTENT_PREFIX}${options.now()}`),
        signal,
      );
    }
  };

  // Re-sends stop at their caps; the book is still read until everything is final,
  // the budget ends, or `maxRounds` (a stop without a budget must end too).
  for (let round = 0; !settled() && !signal.aborted && !refused && round < maxRounds; round++) {
    await act();
    if (signal.aborted || refused) break;
    booksRead = await read();
    everRead ||= booksRead;
    if (settled()) break;
    await port.wait(retryMs, signal);
    if (signal.aborted) break;
    booksRead = await read();
    everRead ||= booksRead;
  }

  if (refused)
    unfinished.push('the session was refused (HTTP 401/403): nothing more could be sent');
  const left = targets();
  if (left.length > 0)
    unfinished.push(`cancel not confirmed for ${left.map((o) => o.tag).join(', ')}`);
  const unknown = port.active().filter((o) => o.orderId === undefined);
  if (unknown.length > 0)
    unfinished.push(
      `placement outcome unknown for ${unknown.map((o) => o.tag).join(', ')}; the next start resolves it by tag`,
    );
  const notPlaced = port.notPlaced?.() ?? [];
  if (notPlaced.length > 0)
    unfinished.push(
      `placement outcome unknown for ${notPlaced.map((o) => o.tag).join(', ')}, absent from the book: counted as not placed; the next start looks for it by tag`,
    );
  if (policy === 'flatten') {
    const open = port.positions().filter((p) => p.netQuantity !== 0);
    if (open.length > 0)
      unfinished.push(`not flat: ${open.map((p) => `${p.symbol} ${p.netQuantity}`).join(', ')}`);
  }
  if (policy === 'flatten' && !everRead) {
    const kept = port.active().filter((o) => isStop(o) && o.orderId !== undefined);
    if (kept.length > 0)
      unfinished.push(
        `no read of the books succeeded: stop order(s) ${kept.map((o) => o.tag).join(', ')} kept (the position is not known), not flattened`,
      );
  }
  if (!booksRead) unfinished.push('the last read of the order book failed: state as last known');
  if (signal.aborted) unfinished.unshift('the stop budget (execution.shutdownTimeoutMs) ran out');

  const roles = classifyWorkingOrders(port.active(), port.netPosition, classifyOptions());
  return {
    policy,
    positions: port.positions().filter((p) => p.netQuantity !== 0),
    orders: port.active().map((order) => ({ order, role: roles.get(order) ?? 'entry' })),
    unfinished,
    booksRead,
  };
}
