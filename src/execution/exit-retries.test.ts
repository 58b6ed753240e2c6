import { describe, expect, it, vi } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { RoutedIntent } from '../domain/intents.ts';
import type { OrderEvent } from '../domain/order-events.ts';
import { memoryLogger } from '../market-data/testing/fake-quote-source.ts';
import type { EngineCore } from './engine-core.ts';
import { type ExitGivenUp, ExitRetries } from './exit-retries.ts';
import { DEFAULT_EXIT_RETRIES } from './exit-retry-options.ts';
import { OPEN_SESSION, placeIntent } from './testing/engine-fixtures.ts';
import { type TrackedOrder, trackedOrder } from './tracked-order.ts';
import { toPlaceRequest } from './wire-order.ts';

const MORNING = Date.parse('2026-11-20T11:00:00+05:30');

/** An order of strategy s1 in SBIN as the tracker holds it. */
function order(intentId: string, extra: Partial<TrackedOrder> = {}): TrackedOrder {
  const intent = placeIntent(intentId, { side: 'S', quantity: 10 });
  const o = trackedOrder({
    strategyId: 's1',
    intentId,
    tag: `t-${intentId}`,
    intent,
    request: toPlaceRequest(intent, `t-${intentId}`, false),
    placedAt: MORNING,
    status: 'pending',
  });
  return Object.assign(o, extra);
}

/** ExitRetries over a hand-driven core: the tracker's orders are what a test sets. */
function setUp() {
  const clock = new VirtualClock(MORNING);
  const active: TrackedOrder[] = [];
  const byIntent = new Map<string, TrackedOrder>();
  const requestCancel = vi.fn(async (_o: TrackedOrder) => undefined);
  const core = {
    options: { clock, logger: memoryLogger().logger },
    tracker: {
      active: () => active.filter((o) => o.status === 'pending'),
      byIntent: (_s: string, id: string) => byIntent.get(id),
    },
    sessions: () => OPEN_SESSION,
    paused: () => false,
    requestCancel,
  } as unknown as EngineCore;
  const submitted: RoutedIntent[] = [];
  const givenUp: ExitGivenUp[] = [];
  const retries = new ExitRetries(
    core,
    async (i) => {
      submitted.push(i);
    },
    DEFAULT_EXIT_RETRIES,
    (g) => givenUp.push(g),
  );
  const track = (o: TrackedOrder) => {
    active.push(o);
    byIntent.set(o.intentId, o);
    return o;
  };
  const event = (e: Partial<OrderEvent> & { type: OrderEvent['type']; intentId: string }) =>
    retries.onEvent({ strategyId: 's1', tag: '', at: clock.now(), ...e } as OrderEvent);
  const squareOff = { kind: 'squareOff', id: 'kill-1', strategyId: 's1' } as const;
  return { clock, retries, submitted, givenUp, track, event, squareOff, requestCancel };
}

describe('ExitRetries', () => {
  it('reports once, still trying, when orders in the instrument will not cancel', async () => {
    const { clock, retries, submitted, givenUp, track, event, squareOff, requestCancel } = setUp();
    retries.watch(squareOff, 'kill-1:3045', 3045);
    event({ type: 'OrderRejected', intentId: 'kill-1:3045', reason: 'RMS' });
    track(order('resting')); // the strategy's own, whose cancel never lands
    clock.advanceBy(10 * 60_000);
    await Promise.resolve();
    expect(submitted).toEqual([]);
    expect(requestCancel.mock.calls.length).toBeGreaterThan(3);
    expect(givenUp).toHaveLength(1);
    expect(givenUp[0]).toMatchObject({ stillTrying: true, refusals: 1 });
    expect(givenUp[0]?.reason).toMatch(/^orders working in the instrument have not gone for \d+ s/);
  });

  it("waits for another square-off's working exit, uncancelled, and tries when it is gone", () => {
    // Checked to fail with the chain ending on the other exit: nothing was submitted.
    const { clock, retries, submitted, givenUp, track, event, squareOff, requestCancel } = setUp();
    retries.watch(squareOff, 'kill-1:3045', 3045);
    event({ type: 'OrderRejected', intentId: 'kill-1:3045', reason: 'RMS' });
    const mine = track(order('mine:3045', { system: true }));
    clock.advanceBy(5_000);
    expect(submitted).toEqual([]);
    expect(requestCancel).not.toHaveBeenCalled();
    // The strategy's own exit is refused in turn (nobody retries it): this chain does.
    mine.status = 'rejected';
    event({ type: 'OrderRejected', intentId: 'mine:3045', reason: 'RMS again' });
    clock.advanceBy(10_000);
    expect(submitted.map((i) => i.id)).toEqual(['kill-1#retry1']);
    expect(givenUp).toEqual([]);
  });

  it('takes an exit cancelled with quantity left, not at its request, for a refusal', () => {
    const { clock, retries, submitted, track, event, squareOff } = setUp();
    retries.watch(squareOff, 'kill-1:3045', 3045);
    const exit = track(order('kill-1:3045', { system: true, status: 'cancelled' }));
    event({ type: 'OrderCancelled', intentId: 'kill-1:3045', filledQuantity: 4 });
    clock.advanceBy(5_000);
    expect(submitted.map((i) => [i.id, i.kind])).toEqual([['kill-1#retry1', 'squareOff']]);
    // One the framework asked to cancel is not.
    retries.watch(squareOff, 'kill-1:3045', 3045);
    exit.cancelRequested = true;
    event({ type: 'OrderCancelled', intentId: 'kill-1:3045', filledQuantity: 4 });
    clock.advanceBy(60_000);
    expect(submitted).toHaveLength(1);
  });
});
