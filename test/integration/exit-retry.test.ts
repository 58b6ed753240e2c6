import { describe, expect, it } from 'vitest';
import { SessionError } from '../../src/api/errors/session-error.ts';
import type { OrderEvent } from '../../src/domain/order-events.ts';
import type { ExitGivenUp } from '../../src/execution/exit-retries.ts';
import { MemoryJournal } from '../../src/execution/journal.ts';
import { SIMULATED_REJECTION } from '../../src/sim/http/fault-injector.ts';
import {
  type ExecutionHarness,
  ioSettled,
  placeIntent,
  useExecutionHarness,
} from '../helpers/execution-harness.ts';

const setUp = useExecutionHarness();
const MORNING = '2026-11-20T10:00:00+05:30';

/** Moves virtual time, lets loopback I/O finish, and reads the books. */
async function step(h: ExecutionHarness, ms: number): Promise<void> {
  await h.clock.advanceByAsync(ms);
  await ioSettled();
  await h.engine.poll();
  await ioSettled();
}

/** Buys 10 SBIN and waits for the fill: the position a square-off must close. */
async function holdTen(h: ExecutionHarness): Promise<void> {
  await h.engine.submit(placeIntent('entry'));
  await step(h, 0);
  expect(held(h)).toBe(10);
}

/**
 * Holds 10, has the exchange refuse the next `refusals` placements, and squares off
 * under `id`: its exit is refused (and the tries after it, up to `refusals`).
 */
async function refusedSquareOff(h: ExecutionHarness, id: string, refusals: number) {
  await holdTen(h);
  h.sim.faults.set({ rejectOrders: refusals });
  await h.engine.submit({ kind: 'squareOff', id, strategyId: 's1' });
  await step(h, 0);
}

/** Strategy s1's net position in SBIN as the engine holds it. */
const held = (h: ExecutionHarness, strategyId = 's1') =>
  h.engine.positions.position(strategyId, 3045)?.netQuantity;

/** Every exit the engine gives up on, as it reports them. */
function givenUpOf(h: ExecutionHarness): ExitGivenUp[] {
  const givenUp: ExitGivenUp[] = [];
  h.engine.exitsGivenUp$.subscribe((g) => givenUp.push(g));
  return givenUp;
}

/**
 * Holds 20 of SBIN from two entries of 10, each within a ₹10,000 order value limit that
 * the whole position (≈ ₹16,000) exceeds; the engine prices orders at the simulator's LTP.
 */
async function twoAllowedEntries(): Promise<ExecutionHarness & { ltp: number }> {
  const ltp = { value: 0 };
  const h = await setUp(MORNING, {
    risk: { maxOrderValue: 1_000_000 },
    quote: () => ({ ltp: ltp.value, lowerLimit: 0, upperLimit: 0 }),
  });
  ltp.value = (await h.client.quote('ltp', 3045)).ltp;
  await h.engine.submit(placeIntent('a'));
  await h.engine.submit(placeIntent('b'));
  await step(h, 0);
  return Object.assign(h, { ltp: ltp.value });
}

/** The simulator's orders of `side` in SBIN, in placement order. */
async function simOrders(h: ExecutionHarness, side: 'B' | 'S') {
  return (await h.client.orderBook())
    .filter((o) => o.transactionType === side)
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((o) => o.orderStatus);
}

describe('a square-off whose exit the exchange rejects is tried again', () => {
  it('closes the position on the third try, each try sized from the position', async () => {
    // Checked to fail: with core.watchExit a no-op (the exit never watched), the position
    // stays at 10 after the first rejection and the sim holds one SELL order.
    const h = await setUp(MORNING);
    await refusedSquareOff(h, 'auto-eod-1', 2);
    expect(h.events.filter((e) => e.type === 'OrderRejected').map((e) => e.intentId)).toEqual([
      'auto-eod-1:3045',
    ]);
    // Nothing before the first wait (5 s) is over.
    await step(h, 4_000);
    expect(await simOrders(h, 'S')).toHaveLength(1);
    await step(h, 1_000);
    expect(await simOrders(h, 'S')).toEqual(['REJECTED', 'REJECTED']);
    // The second wait doubles: 10 s.
    await step(h, 9_000);
    expect(await simOrders(h, 'S')).toHaveLength(2);
    await step(h, 1_000);
    expect(await simOrders(h, 'S')).toEqual(['REJECTED', 'REJECTED', 'COMPLETE']);
    expect(held(h)).toBe(0);
    const ends = h.events
      .filter((e) => e.type === 'OrderRejected' || e.type === 'OrderFilled')
      .map((e) => [e.type, e.intentId, 'reason' in e ? e.reason : undefined]);
    expect(ends).toEqual([
      ['OrderFilled', 'entry', undefined],
      ['OrderRejected', 'auto-eod-1:3045', SIMULATED_REJECTION],
      ['OrderRejected', 'auto-eod-1#retry1:3045', SIMULATED_REJECTION],
      ['OrderFilled', 'auto-eod-1#retry2:3045', undefined],
    ]);
    // Closed: later time places nothing more.
    await step(h, 120_000);
    expect(await simOrders(h, 'S')).toHaveLength(3);
  });

  it('gives up after the last try and says so once; nothing is placed after', async () => {
    const h = await setUp(MORNING, { exitRetries: { attempts: 2, firstDelayMs: 1_000 } });
    const givenUp = givenUpOf(h);
    await holdTen(h);
    h.sim.faults.set({ rejectOrders: 100 });
    await h.engine.submit({ kind: 'squareOff', id: 'kill-1', strategyId: 's1', reason: 'test' });
    await step(h, 0);
    await step(h, 1_000);
    expect(givenUp).toEqual([]);
    await step(h, 2_000);
    expect(await simOrders(h, 'S')).toEqual(['REJECTED', 'REJECTED', 'REJECTED']);
    await Promise.resolve(); // reported after the event's other listeners
    expect(givenUp).toEqual([
      {
        strategyId: 's1',
        token: 3045,
        intentId: 'kill-1',
        refusals: 3,
        reason: `refused on every try: ${SIMULATED_REJECTION}`,
        at: expect.any(Number),
      },
    ]);
    await step(h, 600_000);
    expect(await simOrders(h, 'S')).toHaveLength(3);
    expect(held(h)).toBe(10);
  });

  it('places nothing when the position is flat by the next try', async () => {
    const h = await setUp(MORNING);
    await refusedSquareOff(h, 'auto-eod-1', 1);
    // The strategy closes it itself before the try.
    await h.engine.submit(placeIntent('own-exit', { side: 'S' }));
    await step(h, 0);
    expect(held(h)).toBe(0);
    await step(h, 5_000);
    expect(await simOrders(h, 'S')).toEqual(['REJECTED', 'COMPLETE']);
    expect(held(h)).toBe(0);
  });

  it('cancels an order working in the instrument before it sends the exit', async () => {
    // Checked to fail: with the working-order check removed from ExitRetries.attempt, the
    // try's square-off cancels the resting order and sends the exit in the same breath.
    const h = await setUp(MORNING);
    await refusedSquareOff(h, 'auto-eod-1', 1);
    // A resting buy far below the market appears before the try.
    await h.engine.submit(placeIntent('rest', { orderType: 'LMT', price: 76_000, quantity: 1 }));
    await step(h, 0);
    await step(h, 5_000);
    // The try cancelled it and sent no exit yet.
    expect(await simOrders(h, 'B')).toEqual(['COMPLETE', 'CANCELED']);
    expect(await simOrders(h, 'S')).toEqual(['REJECTED']);
    await step(h, 10_000);
    expect(await simOrders(h, 'S')).toEqual(['REJECTED', 'COMPLETE']);
    expect(held(h)).toBe(0);
  });

  it("leaves a strategy's own square-off to the strategy", async () => {
    const h = await setUp(MORNING);
    await refusedSquareOff(h, 'flat', 1);
    await step(h, 60_000);
    expect(await simOrders(h, 'S')).toEqual(['REJECTED']);
    expect(held(h)).toBe(10);
  });

  it("keeps each strategy's chain its own when they share the square-off's id", async () => {
    // The square-off before the close, the kill switch and an operator's square-off-all
    // give every strategy one id: each strategy's tries close its own position.
    const h = await setUp(MORNING);
    await holdTen(h);
    await h.engine.submit({ ...placeIntent('entry-2', { quantity: 5 }), strategyId: 's2' });
    await step(h, 0);
    h.sim.faults.set({ rejectOrders: 4 });
    await h.engine.submit({ kind: 'squareOff', id: 'auto-eod-7', strategyId: 's1' });
    await h.engine.submit({ kind: 'squareOff', id: 'auto-eod-7', strategyId: 's2' });
    await step(h, 0);
    await step(h, 5_000);
    await step(h, 10_000);
    expect(await simOrders(h, 'S')).toEqual([
      'REJECTED',
      'REJECTED',
      'REJECTED',
      'REJECTED',
      'COMPLETE',
      'COMPLETE',
    ]);
    expect(held(h)).toBe(0);
    expect(held(h, 's2')).toBe(0);
  });

  it('waits while trading is paused, spending no try, and sends once resumed', async () => {
    // Checked to fail without the pause check: the try was submitted and deferred.
    const h = await setUp(MORNING, { exitRetries: { attempts: 1, firstDelayMs: 1_000 } });
    await refusedSquareOff(h, 'ops-1', 1);
    h.engine.pause(new SessionError('expired', { operation: 'placeOrder', status: 401 }));
    await step(h, 1_000);
    await step(h, 1_000);
    await step(h, 1_000);
    expect(await simOrders(h, 'S')).toEqual(['REJECTED']);
    // Not even submitted (to wait among the deferred intents, sized from now).
    expect(h.events.filter((e) => e.type === 'IntentDeferred')).toEqual([]);
    h.engine.resume();
    await step(h, 1_000);
    expect(await simOrders(h, 'S')).toEqual(['REJECTED', 'COMPLETE']);
    expect(held(h)).toBe(0);
  });

  it('gives up when the market has closed by the try: nothing waits for the next open', async () => {
    // Checked to fail without the closed-market check: the try's exit, sized on Friday,
    // was deferred to Monday's open and sent there.
    const h = await setUp('2026-11-20T15:29:40+05:30', {
      exitRetries: { attempts: 5, firstDelayMs: 30_000 },
    });
    const givenUp = givenUpOf(h);
    await refusedSquareOff(h, 'auto-eod-9', 1);
    await step(h, 30_000);
    await Promise.resolve();
    expect(givenUp.map((g) => g.reason)).toEqual([
      `the market is closed (last refusal: ${SIMULATED_REJECTION})`,
    ]);
    expect(await simOrders(h, 'S')).toEqual(['REJECTED']);
    await h.clock.advanceToAsync(Date.parse('2026-11-23T09:20:00+05:30'));
    await step(h, 0);
    // The entry and the refused exit; Monday's book holds nothing.
    expect(h.sim.stats.count('placeOrder')).toBe(2);
    expect(await h.client.orderBook()).toEqual([]);
  });

  it('gives up at once on a risk denial, which every try would meet', async () => {
    // One share has come to be worth more than one allowed order: no slice fits.
    let ltp = 10_000;
    const h = await setUp(MORNING, {
      risk: { maxOrderValue: 500_000 },
      quote: () => ({ ltp, lowerLimit: 0, upperLimit: 0 }),
    });
    const givenUp = givenUpOf(h);
    await h.engine.submit(placeIntent('a', { quantity: 5 }));
    await step(h, 0);
    ltp = 10_000_000;
    await h.engine.submit({ kind: 'squareOff', id: 'auto-eod-3', strategyId: 's1' });
    await step(h, 0);
    await Promise.resolve();
    expect(givenUp).toHaveLength(1);
    expect(givenUp[0]?.reason).toMatch(/^denied: order value \d+ paise exceeds/);
    await step(h, 60_000);
    expect(await simOrders(h, 'S')).toEqual([]);
  });

  it('never sends again an exit whose outcome stayed unknown twice', async () => {
    // The engine re-places an unknown outcome once only; an earlier attempt may still be
    // in the book. Checked to fail with `uncertain()` answering false: a third exit went out.
    const h = await setUp(MORNING);
    const givenUp = givenUpOf(h);
    await holdTen(h);
    h.sim.faults.set({ dropRate: 1, routes: ['placeOrder'] });
    await h.engine.submit({ kind: 'squareOff', id: 'auto-eod-5', strategyId: 's1' });
    for (let i = 0; i < 4; i++) await step(h, 3_000);
    await Promise.resolve();
    expect(h.sim.stats.count('placeOrder')).toBe(3);
    expect(givenUp.map((g) => g.reason)).toEqual([
      'its outcome is not known for sure, not sent again: placement outcome unknown twice; giving up',
    ]);
    h.sim.faults.reset();
    await step(h, 120_000);
    expect(h.sim.stats.count('placeOrder')).toBe(3);
  });

  it('tries nothing more once the engine stops', async () => {
    const h = await setUp(MORNING);
    await refusedSquareOff(h, 'kill-2', 1);
    await h.engine.stop();
    await h.clock.advanceByAsync(60_000);
    await ioSettled();
    expect(h.sim.stats.count('placeOrder')).toBe(2);
  });

  it('closes a position worth more than one allowed order in slices, each within the limits', async () => {
    // Two entries of 10 at about ₹800 are each within ₹10,000; the position (₹16,000) is
    // not. Checked to fail with the exit sent whole: denied, and the position stays at 20.
    const h = await twoAllowedEntries();
    expect(held(h)).toBe(20);
    await h.engine.submit({ kind: 'squareOff', id: 'auto-eod-4', strategyId: 's1' });
    await step(h, 0);
    const sells = (await h.client.orderBook()).filter((o) => o.transactionType === 'S');
    const per = Math.floor(1_000_000 / (h.ltp * 1.01));
    const sizes = sells.map((o) => Number(o.quantity));
    expect(per).toBeLessThan(20);
    expect(sizes).toHaveLength(Math.ceil(20 / per));
    expect(sizes.every((q) => q <= per)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(20);
    expect(sells.every((o) => o.orderStatus === 'COMPLETE')).toBe(true);
    expect(held(h)).toBe(0);
    expect(h.events.filter((e) => e.type === 'OrderDenied')).toEqual([]);
  });

  it('never carries an intraday exit refused for its session into the next day', async () => {
    // Checked to fail without the session check in placement.ts: Friday's SELL 10 was
    // placed at Monday's resume (against a real broker, which squared the position off
    // on Friday, a new short).
    const h = await setUp('2026-11-20T15:15:00+05:30');
    const givenUp = givenUpOf(h);
    await holdTen(h);
    h.sim.faults.set({ tokenExpiresAt: h.clock.now() });
    await h.engine.submit({ kind: 'squareOff', id: 'auto-eod-8', strategyId: 's1' });
    await ioSettled();
    expect(h.engine.pausedReason).toBeDefined();
    await h.clock.advanceToAsync(Date.parse('2026-11-23T09:30:00+05:30'));
    h.sim.faults.set({ tokenExpiresAt: undefined });
    h.engine.resume();
    await step(h, 0);
    await Promise.resolve();
    expect(await h.client.orderBook()).toEqual([]);
    // The entry, and the exit the service refused for the session: nothing since.
    expect(h.sim.stats.count('placeOrder')).toBe(2);
    expect(givenUp.map((g) => g.reason)).toEqual([
      expect.stringMatching(/^denied: an intraday square-off exit is not carried past its session/),
    ]);
  });

  it('closes a sliced position once when two square-offs come at the same moment', async () => {
    // Checked to fail with square-offs run side by side: sells of 12 + 8 + 8 left -8.
    const h = await twoAllowedEntries();
    await Promise.all([
      h.engine.submit({ kind: 'squareOff', id: 'flat', strategyId: 's1' }),
      h.engine.submit({ kind: 'squareOff', id: 'auto-eod-6', strategyId: 's1' }),
    ]);
    await step(h, 0);
    await step(h, 60_000);
    const sold = (await h.client.orderBook())
      .filter((o) => o.transactionType === 'S' && o.orderStatus === 'COMPLETE')
      .reduce((sum, o) => sum + Number(o.quantity), 0);
    expect(sold).toBe(20);
    expect(held(h)).toBe(0);
  });

  it('closes a position whose resting stop it cancels, also under the kill switch', async () => {
    // Checked to fail with the stop's remainder counted: the exit looked like a new short
    // and the kill switch denied it ("only exits are allowed today"), the stop cancelled.
    const h = await setUp(MORNING);
    await holdTen(h);
    await h.engine.submit(
      placeIntent('stop', { side: 'S', orderType: 'SL-MKT', triggerPrice: 70_000 }),
    );
    await step(h, 0);
    expect(h.engine.tripKillSwitch('test')).toBe(true);
    await step(h, 0);
    await step(h, 5_000);
    expect(h.events.filter((e) => e.type === 'OrderDenied')).toEqual([]);
    expect(held(h)).toBe(0);
  });

  it("counts a square-off's exits in the day's order budget, the same after a restart", async () => {
    // Checked to fail with the restart's count leaving the framework's orders out (as it
    // did): 'd' was placed after the restart although the day's budget was spent.
    const journal = new MemoryJournal();
    const h = await setUp(MORNING, { risk: { maxOrdersPerDay: 3 }, journal });
    await holdTen(h);
    await h.engine.submit({ kind: 'squareOff', id: 'auto-eod-2', strategyId: 's1' });
    await step(h, 0);
    await h.engine.submit(placeIntent('b'));
    await h.engine.submit(placeIntent('c'));
    await step(h, 0);
    const denied = (events: OrderEvent[]) =>
      events.filter((e) => e.type === 'OrderDenied').map((e) => e.intentId);
    expect(denied(h.events)).toEqual(['c']);
    await h.engine.stop();
    const again = h.newEngine();
    await again.engine.recover();
    await again.engine.submit(placeIntent('d'));
    expect(denied(again.events)).toEqual(['d']);
    await again.engine.stop();
  });
});
