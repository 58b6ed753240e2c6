import { describe, expect, it } from 'vitest';
import type { ExitGivenUp } from '../../src/execution/exit-retries.ts';
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
  expect(h.engine.positions.position('s1', 3045)?.netQuantity).toBe(10);
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
    await holdTen(h);
    h.sim.faults.set({ rejectOrders: 2 });
    await h.engine.submit({ kind: 'squareOff', id: 'eod', strategyId: 's1' });
    await step(h, 0);
    expect(h.events.filter((e) => e.type === 'OrderRejected').map((e) => e.intentId)).toEqual([
      'eod:3045',
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
    expect(h.engine.positions.position('s1', 3045)?.netQuantity).toBe(0);
    const ends = h.events
      .filter((e) => e.type === 'OrderRejected' || e.type === 'OrderFilled')
      .map((e) => [e.type, e.intentId, 'reason' in e ? e.reason : undefined]);
    expect(ends).toEqual([
      ['OrderFilled', 'entry', undefined],
      ['OrderRejected', 'eod:3045', SIMULATED_REJECTION],
      ['OrderRejected', 'eod#retry1:3045', SIMULATED_REJECTION],
      ['OrderFilled', 'eod#retry2:3045', undefined],
    ]);
    // Closed: later time places nothing more.
    await step(h, 120_000);
    expect(await simOrders(h, 'S')).toHaveLength(3);
  });

  it('gives up after the last try and says so once; nothing is placed after', async () => {
    const h = await setUp(MORNING, { exitRetries: { attempts: 2, firstDelayMs: 1_000 } });
    const givenUp: ExitGivenUp[] = [];
    h.engine.exitsGivenUp$.subscribe((g) => givenUp.push(g));
    await holdTen(h);
    h.sim.faults.set({ rejectOrders: 100 });
    await h.engine.submit({ kind: 'squareOff', id: 'k', strategyId: 's1', reason: 'test' });
    await step(h, 0);
    await step(h, 1_000);
    expect(givenUp).toEqual([]);
    await step(h, 2_000);
    expect(await simOrders(h, 'S')).toEqual(['REJECTED', 'REJECTED', 'REJECTED']);
    expect(givenUp).toEqual([
      {
        strategyId: 's1',
        token: 3045,
        intentId: 'k',
        tries: 3,
        reason: SIMULATED_REJECTION,
        at: expect.any(Number),
      },
    ]);
    await step(h, 600_000);
    expect(await simOrders(h, 'S')).toHaveLength(3);
    expect(h.engine.positions.position('s1', 3045)?.netQuantity).toBe(10);
  });

  it('places nothing when the position is flat by the next try', async () => {
    const h = await setUp(MORNING);
    await holdTen(h);
    h.sim.faults.set({ rejectOrders: 1 });
    await h.engine.submit({ kind: 'squareOff', id: 'eod', strategyId: 's1' });
    await step(h, 0);
    // The strategy closes it itself before the try.
    await h.engine.submit(placeIntent('own-exit', { side: 'S' }));
    await step(h, 0);
    expect(h.engine.positions.position('s1', 3045)?.netQuantity).toBe(0);
    await step(h, 5_000);
    expect(await simOrders(h, 'S')).toEqual(['REJECTED', 'COMPLETE']);
    expect(h.engine.positions.position('s1', 3045)?.netQuantity).toBe(0);
  });

  it('cancels an order working in the instrument before it sends the exit', async () => {
    // Checked to fail: with the working-order check removed from ExitRetries.attempt, the
    // try's square-off cancels the resting order and sends the exit in the same breath.
    const h = await setUp(MORNING);
    await holdTen(h);
    h.sim.faults.set({ rejectOrders: 1 });
    await h.engine.submit({ kind: 'squareOff', id: 'eod', strategyId: 's1' });
    await step(h, 0);
    // A resting buy far below the market appears before the try.
    await h.engine.submit(placeIntent('rest', { orderType: 'LMT', price: 76_000, quantity: 1 }));
    await step(h, 0);
    await step(h, 5_000);
    // The try cancelled it and sent no exit yet.
    expect(await simOrders(h, 'B')).toEqual(['COMPLETE', 'CANCELED']);
    expect(await simOrders(h, 'S')).toEqual(['REJECTED']);
    await step(h, 10_000);
    expect(await simOrders(h, 'S')).toEqual(['REJECTED', 'COMPLETE']);
    expect(h.engine.positions.position('s1', 3045)?.netQuantity).toBe(0);
  });
});
