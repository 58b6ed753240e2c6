import { describe, expect, it } from 'vitest';
import type { VirtualClock } from '../../src/clock/virtual-clock.ts';
import type { Broker } from '../../src/execution/broker.ts';
import type { ExecutionEngine, ShutdownOptions } from '../../src/execution/execution-engine.ts';
import { MemoryJournal } from '../../src/execution/journal.ts';
import type { ShutdownPolicy } from '../../src/execution/shutdown-policy.ts';
import type { RunningSimulator } from '../../src/sim/index.ts';
import { ioSettled, placeIntent, useExecutionHarness } from '../helpers/execution-harness.ts';

const MORNING = '2026-11-20T10:00:00+05:30';
const setUp = useExecutionHarness();

/**
 * Runs a stop while stepping virtual time (100 ms), each step only once the client's
 * loopback requests have settled (a loaded runner must not burn the stop's budget while
 * an answer is on its way); bounded at 600 steps.
 */
async function stopDriven(
  engine: ExecutionEngine,
  clock: VirtualClock,
  policy: ShutdownPolicy,
  options: ShutdownOptions = {},
) {
  let done = false;
  const stopping = engine.shutdown(policy, options).finally(() => {
    done = true;
  });
  for (let i = 0; i < 600 && !done; i++) {
    await ioSettled();
    if (!done) clock.advanceBy(100);
  }
  if (!done) throw new Error('the stop did not end within 60 s of virtual time');
  return stopping;
}

/** Net quantity of SBIN at the simulator, from its trade book. */
const netAtBroker = (sim: RunningSimulator): number =>
  sim.exchange
    .tradeBook()
    .reduce((n, t) => n + (t.transactionType === 'B' ? 1 : -1) * Number(t.fillShares), 0);

const statusOf = (sim: RunningSimulator, predicate: (tags: string) => boolean) =>
  sim.exchange
    .orderBook()
    .filter((o) => predicate(o.tags))
    .map((o) => o.orderStatus);

/** A short cover sell of 10 SBIN (its stop leg buys 10 back), and two fresh entries. */
async function shortWithStopAndEntries(engine: ExecutionEngine, sim: RunningSimulator) {
  const ltp = sim.exchange.quote('ltp', 3045).ltp;
  const tick = (x: number) => Math.floor(x / 5) * 5;
  await engine.submit(
    placeIntent('short', { side: 'S', variety: 'cover', bookLossPrice: tick(ltp * 1.02) }),
  );
  await engine.submit(placeIntent('buy-dip', { orderType: 'LMT', price: tick(ltp * 0.97) }));
  await engine.submit(
    placeIntent('sell-more', { side: 'S', orderType: 'LMT', price: tick(ltp * 1.01) }),
  );
  await engine.poll();
  expect(engine.positions.positions('s1')[0]?.netQuantity).toBe(-10);
  expect(engine.orders('s1').find((o) => o.intentId === 'short/stop')?.status).toBe('open');
}

describe('stopping under execution.onShutdown, against the simulator', () => {
  it('cancel-entries (default) cancels the entries and keeps the short position with its cover stop', async () => {
    // Checked to fail: with the old `cancelAll` at stop, the stop leg is CANCELED and
    // the short is left naked; the first assertion on the stop leg breaks.
    const { engine, sim, clock } = await setUp(MORNING);
    await shortWithStopAndEntries(engine, sim);
    const report = await stopDriven(engine, clock, 'cancel-entries');
    const stopLeg = sim.exchange
      .orderBook()
      .find((o) => o.snoOrderDirection === 'SL' && o.snoOrderID !== '');
    expect(stopLeg?.orderStatus).toBe('OPEN');
    const entryTags = engine
      .orders('s1')
      .filter((o) => o.intentId === 'buy-dip' || o.intentId === 'sell-more')
      .map((o) => o.tag);
    expect(statusOf(sim, (t) => entryTags.includes(t))).toEqual(['CANCELED', 'CANCELED']);
    expect(netAtBroker(sim)).toBe(-10);
    expect(report.positions.map((p) => [p.symbol, p.netQuantity])).toEqual([['SBIN-EQ', -10]]);
    expect(report.orders.map((o) => [o.order.intentId, o.role])).toEqual([
      ['short/stop', 'protective'],
    ]);
    expect(report.unfinished).toEqual([]);
  });

  it('flatten cancels everything and squares off', async () => {
    // Checked to fail: without the square-off step the broker stays short 10.
    const { engine, sim, clock } = await setUp(MORNING);
    await shortWithStopAndEntries(engine, sim);
    const report = await stopDriven(engine, clock, 'flatten');
    expect(netAtBroker(sim)).toBe(0);
    expect(sim.exchange.orderBook().filter((o) => o.orderStatus === 'OPEN')).toEqual([]);
    expect(report.positions).toEqual([]);
    expect(report.orders).toEqual([]);
    expect(report.unfinished).toEqual([]);
  });

  it('leave touches nothing at the broker', async () => {
    const { engine, sim, clock } = await setUp(MORNING);
    await shortWithStopAndEntries(engine, sim);
    const cancels = sim.stats.count('cancelOrder');
    const report = await stopDriven(engine, clock, 'leave');
    expect(sim.stats.count('cancelOrder')).toBe(cancels);
    expect(report.orders).toHaveLength(3);
  });

  it('a placement still in flight at the stop, its answer lost, is found by tag and cancelled', async () => {
    // Checked to fail: skipping the wait for placements under way leaves this order
    // OPEN at the simulator (the "stays OPEN at the broker").
    const { engine, sim, clock } = await setUp(MORNING);
    const ltp = sim.exchange.quote('ltp', 3045).ltp;
    sim.faults.set({ loseOrderResponses: 1 });
    void engine.submit(placeIntent('late', { orderType: 'LMT', price: Math.floor(ltp * 0.9) }));
    const report = await stopDriven(engine, clock, 'cancel-entries');
    expect(sim.exchange.orderBook().map((o) => o.orderStatus)).toEqual(['CANCELED']);
    expect(report.orders).toEqual([]);
  });

  it('a cancel whose answer is unreadable is checked in the book and sent again', async () => {
    // Checked to fail: with a single cancel and no re-read, the order stays OPEN.
    const { sim, clock, client, newEngine } = await setUp(MORNING);
    let spoiled = false;
    // The first cancel gets a malformed answer (the simulator drops it unprocessed).
    const broker: Broker = {
      placeOrder: (...a) => client.placeOrder(...a),
      modifyOrder: (...a) => client.modifyOrder(...a),
      orderHistory: (...a) => client.orderHistory(...a),
      orderBook: (...a) => client.orderBook(...a),
      tradeBook: (...a) => client.tradeBook(...a),
      cancelOrder: async (...a) => {
        if (spoiled) return client.cancelOrder(...a);
        spoiled = true;
        sim.faults.set({ malformedRate: 1, routes: ['cancelOrder'] });
        try {
          return await client.cancelOrder(...a);
        } finally {
          sim.faults.reset();
        }
      },
    };
    const { engine } = newEngine({ broker });
    const ltp = sim.exchange.quote('ltp', 3045).ltp;
    await engine.submit(placeIntent('rest', { orderType: 'LMT', price: Math.floor(ltp * 0.9) }));
    const report = await stopDriven(engine, clock, 'cancel-entries');
    expect(sim.stats.count('cancelOrder')).toBe(2);
    expect(sim.exchange.orderBook().map((o) => o.orderStatus)).toEqual(['CANCELED']);
    expect(report.orders).toEqual([]);
  });

  it('flatten squares off an instrument whose last placement never reached the service (outcome unknown, absent from the book)', async () => {
    // Checked to fail: before the fix the stop left such an attempt `unknown` (nothing
    // re-placed while stopping), it counted as working on SBIN, the square-off never
    // came, and the report said "not flat: SBIN-EQ -10" with the broker still short 10.
    const { engine, sim, clock, events } = await setUp(MORNING);
    await shortWithStopAndEntries(engine, sim);
    const ltp = sim.exchange.quote('ltp', 3045).ltp;
    sim.faults.set({ dropRate: 1, routes: ['placeOrder'] });
    await engine.submit(placeIntent('lost', { orderType: 'LMT', price: Math.floor(ltp * 0.9) }));
    sim.faults.reset();
    const lost = engine.orders('s1').find((o) => o.intentId === 'lost');
    expect(lost?.status).toBe('unknown');
    const placements = sim.stats.count('placeOrder');
    const report = await stopDriven(engine, clock, 'flatten');
    expect(netAtBroker(sim)).toBe(0);
    expect(sim.exchange.orderBook().filter((o) => o.orderStatus === 'OPEN')).toEqual([]);
    expect(report.positions).toEqual([]);
    expect(report.orders).toEqual([]);
    // One square-off, and the lost attempt is not placed again.
    expect(sim.stats.count('placeOrder')).toBe(placements + 1);
    expect(report.unfinished).toEqual([
      `placement outcome unknown for ${lost?.tag}, absent from the book: counted as not placed; the next start looks for it by tag`,
    ]);
    expect(events.filter((e) => e.intentId === 'lost' && e.type === 'OrderRejected')).toEqual([]);
  });

  it.each([
    ['absent then too: not placed, never placed again', false],
    ['in the book by then: found by its tag and followed', true],
  ])('an attempt a stop counted as not placed, at the next start: %s', async (_, showsUp) => {
    // Checked to fail: without the mark in the journal, the next start re-placed the
    // attempt after the grace period (a second order for an intent of an ended run);
    // journaled final instead, a late order under its tag would never be looked for.
    const { sim, clock, client, newEngine } = await setUp(MORNING);
    const journal = new MemoryJournal();
    const first = newEngine({ journal });
    const ltp = sim.exchange.quote('ltp', 3045).ltp;
    sim.faults.set({ dropRate: 1, routes: ['placeOrder'] });
    await first.engine.submit(
      placeIntent('lost', { orderType: 'LMT', price: Math.floor(ltp * 0.9) }),
    );
    sim.faults.reset();
    const lost = first.engine.orders('s1')[0];
    await stopDriven(first.engine, clock, 'flatten');
    expect(lost?.status).toBe('rejected');
    if (showsUp && lost !== undefined) await client.placeOrder(lost.variety, lost.request);
    const placements = sim.stats.count('placeOrder');
    const second = newEngine({ journal });
    await second.engine.recover();
    clock.advanceBy(6_000);
    await second.engine.poll();
    const again = second.engine.orders('s1')[0];
    expect(sim.stats.count('placeOrder')).toBe(placements);
    if (showsUp) {
      expect(again?.status).toBe('open');
      expect(again?.orderId).toBe(sim.exchange.orderBook()[0]?.id);
    } else {
      expect(again?.status).toBe('rejected');
      expect(second.events.find((e) => e.type === 'OrderRejected')).toMatchObject({
        intentId: 'lost',
        reason: expect.stringMatching(/absent from the book at the last stop/),
      });
    }
  });
});
