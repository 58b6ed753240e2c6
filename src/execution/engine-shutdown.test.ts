import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { OutcomeUnknownError } from '../api/errors/outcome-unknown-error.ts';
import type { OrderBookRecord } from '../api/schemas/order-records.ts';
import type { PlaceOrderResult } from '../api/schemas/order-requests.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { PlaceIntent } from '../domain/intents.ts';
import type { Broker } from './broker.ts';
import { ExecutionEngine } from './execution-engine.ts';
import { OPEN_SESSION } from './testing/engine-fixtures.ts';

type CancelMode = 'ok' | 'lost-before' | 'lost-after' | 'stall';

/**
 * An in-memory broker whose answers a test can hold back: placements wait for
 * `answerPlacements()`, cancels follow `cancelModes` in turn, and `stallBooks` makes
 * every book read hang.
 */
class FakeBroker implements Broker {
  readonly book: OrderBookRecord[] = [];
  readonly cancels: string[] = [];
  cancelModes: CancelMode[] = [];
  stallBooks = false;
  /** Every book read fails (a 5xx, say). */
  failBooks = false;
  holdPlacements = false;
  private held: Array<() => void> = [];

  placeOrder(_v: unknown, request: { tags?: string; quantity: string }): Promise<PlaceOrderResult> {
    // A held placement is still on its way: the book learns of it with the answer.
    const accept = (): PlaceOrderResult => {
      const id = String(1000 + this.book.length);
      this.book.push({
        id,
        tags: request.tags ?? '',
        orderStatus: 'OPEN',
        quantity: request.quantity,
        price: '100.00',
        fillShares: '0',
        rejectReason: '',
        snoOrderDirection: '',
        snoOrderID: '',
      } as OrderBookRecord);
      return { orderNo: id } as PlaceOrderResult;
    };
    if (!this.holdPlacements) return Promise.resolve(accept());
    return new Promise((resolve) => this.held.push(() => resolve(accept())));
  }

  answerPlacements(): void {
    for (const answer of this.held.splice(0)) answer();
  }

  modifyOrder(): never {
    throw new Error('not used');
  }

  cancelOrder(_v: unknown, orderId: string) {
    this.cancels.push(orderId);
    const mode = this.cancelModes.shift() ?? 'ok';
    const cancel = () => {
      const record = this.book.find((r) => r.id === orderId);
      if (record !== undefined) record.orderStatus = 'CANCELED';
    };
    const lost = new OutcomeUnknownError('cancelOrder: unreadable answer', {
      operation: 'cancelOrder',
      orderId,
    });
    if (mode === 'stall') return new Promise<never>(() => {});
    if (mode === 'lost-before') return Promise.reject(lost);
    cancel();
    if (mode === 'lost-after') return Promise.reject(lost);
    return Promise.resolve({ message: 'ok' } as never);
  }

  orderHistory() {
    return Promise.resolve([]);
  }

  orderBook() {
    if (this.stallBooks) return new Promise<never>(() => {});
    if (this.failBooks) return Promise.reject(new Error('order book: 503'));
    return Promise.resolve(this.book.map((r) => ({ ...r })));
  }

  tradeBook() {
    if (this.stallBooks) return new Promise<never>(() => {});
    if (this.failBooks) return Promise.reject(new Error('trade book: 503'));
    return Promise.resolve([]);
  }
}

const entry = (id: string): PlaceIntent & { strategyId: string } => ({
  kind: 'place',
  strategyId: 's1',
  id,
  instrument: { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ' },
  side: 'B',
  quantity: 10,
  orderType: 'LMT',
  price: 10_000,
  product: 'I',
});

function setUp() {
  const clock = new VirtualClock(Date.parse('2026-11-20T10:00:00+05:30'));
  const broker = new FakeBroker();
  const engine = new ExecutionEngine({
    broker,
    clock,
    logger: pino({ level: 'silent' }),
    sessions: OPEN_SESSION,
  });
  return { clock, broker, engine };
}

/** Steps virtual time 100 ms at a time until `work` settles (at most `maxMs`). */
async function drive<T>(clock: VirtualClock, work: Promise<T>, maxMs = 60_000): Promise<T> {
  let done = false;
  const watched = work.finally(() => {
    done = true;
  });
  for (let t = 0; t <= maxMs && !done; t += 100) {
    for (let i = 0; i < 20; i++) await Promise.resolve();
    if (!done) clock.advanceBy(100);
  }
  return watched;
}

describe('ExecutionEngine.shutdown', () => {
  it('waits for a placement in flight, then cancels it as an entry', async () => {
    // Checked to fail: without the wait for submissions, the order has no id when the
    // policy runs, nothing is cancelled, and the book keeps it OPEN.
    const { clock, broker, engine } = setUp();
    broker.holdPlacements = true;
    void engine.submit(entry('e1'));
    clock.scheduler.schedule(() => broker.answerPlacements(), 2_000);
    const report = await drive(clock, engine.shutdown('cancel-entries'));
    expect(broker.book.map((r) => r.orderStatus)).toEqual(['CANCELED']);
    expect(report.orders).toEqual([]);
    expect(report.unfinished).toEqual([]);
  });

  it.each(['lost-before', 'lost-after'] as const)(
    'verifies a cancel whose answer is unreadable (%s the cancel) in the book, and sends it again if needed',
    async (mode) => {
      // Checked to fail: with one cancel and no re-read (the old cancelAll), the
      // 'lost-before' case leaves the order OPEN.
      const { clock, broker, engine } = setUp();
      await engine.submit(entry('e1'));
      broker.cancelModes = [mode];
      const report = await drive(clock, engine.shutdown('cancel-entries'));
      expect(broker.book[0]?.orderStatus).toBe('CANCELED');
      expect(broker.cancels).toHaveLength(mode === 'lost-before' ? 2 : 1);
      expect(report.orders).toEqual([]);
      expect(engine.orders('s1')[0]?.status).toBe('cancelled');
    },
  );

  it('leaves everything with `leave`', async () => {
    const { clock, broker, engine } = setUp();
    await engine.submit(entry('e1'));
    const report = await drive(clock, engine.shutdown('leave'));
    expect(broker.cancels).toEqual([]);
    expect(report.orders.map((o) => [o.order.intentId, o.role])).toEqual([['e1', 'entry']]);
  });

  it('ends at the budget when the service stalls, and says what it could not finish', async () => {
    // Checked to fail: with the book reads awaited without the signal, `drive` runs out
    // of virtual time and the test times out on a stop that never ends.
    const { clock, broker, engine } = setUp();
    await engine.submit(entry('e1'));
    broker.stallBooks = true;
    broker.cancelModes = ['stall'];
    const budget = new AbortController();
    clock.scheduler.schedule(() => budget.abort(), 5_000);
    const report = await drive(clock, engine.shutdown('cancel-entries', { signal: budget.signal }));
    expect(clock.now() - Date.parse('2026-11-20T10:00:00+05:30')).toBeLessThanOrEqual(5_100);
    expect(report.unfinished[0]).toMatch(/budget .*ran out/);
    expect(report.unfinished.join('\n')).toMatch(/cancel not confirmed for s1-/);
    expect(report.booksRead).toBe(false);
    expect(report.orders).toHaveLength(1);
  });

  it("keeps a cover order's stop leg when the trade book lags the order book at the stop", async () => {
    // Checked to fail: with the position from trade-book fills only, the stop-time read
    // (parent COMPLETE, its fill not in the trade book yet) gave a net of 0, `p3/stop`
    // was an entry, and its cancel was sent: a naked short.
    const { clock, broker, engine } = setUp();
    await engine.submit({ ...entry('p3'), side: 'S', variety: 'cover', bookLossPrice: 10_500 });
    const parent = broker.book[0] as OrderBookRecord;
    parent.orderStatus = 'COMPLETE';
    parent.fillShares = '10';
    broker.book.push({
      ...parent,
      id: '2000',
      tags: '',
      orderStatus: 'TRIGGER_PENDING',
      fillShares: '0',
      snoOrderDirection: 'SL',
      snoOrderID: parent.id,
    } as OrderBookRecord);
    const report = await drive(clock, engine.shutdown('cancel-entries'));
    expect(broker.cancels).not.toContain('2000');
    expect(broker.book[1]?.orderStatus).toBe('TRIGGER_PENDING');
    const roles = report.orders.map((o) => [o.order.intentId, o.role]);
    expect(roles).toContainEqual(['p3/stop', 'protective']);
  });

  it('cancels no stop order when no read of the books succeeds during the stop', async () => {
    // Checked to fail: without `keepStops`, the SL-MKT (seemingly flat: nothing booked)
    // is an entry and its cancel is sent although the position is not known.
    const { clock, broker, engine } = setUp();
    const { price: _limit, ...limit } = entry('sl');
    await engine.submit({ ...limit, orderType: 'SL-MKT', triggerPrice: 10_500 });
    await engine.submit(entry('lmt'));
    broker.failBooks = true;
    const budget = new AbortController();
    clock.scheduler.schedule(() => budget.abort(), 5_000);
    const report = await drive(clock, engine.shutdown('cancel-entries', { signal: budget.signal }));
    expect(report.booksRead).toBe(false);
    // The limit entry is cancelled; the stop is not.
    expect(broker.cancels.length).toBeGreaterThan(0);
    expect(new Set(broker.cancels)).toEqual(new Set([broker.book[1]?.id]));
  });

  it('flatten, too, cancels no stop order until a read of the books succeeds, and says so', async () => {
    // Checked to fail: with `flatten` cancelling every working order regardless, the
    // SL-MKT's cancel is sent (unconfirmed, the book unreadable), and the report says
    // nothing of a kept stop.
    const { clock, broker, engine } = setUp();
    const { price: _limit, ...limit } = entry('sl');
    await engine.submit({ ...limit, orderType: 'SL-MKT', triggerPrice: 10_500 });
    await engine.submit(entry('lmt'));
    broker.failBooks = true;
    const budget = new AbortController();
    clock.scheduler.schedule(() => budget.abort(), 5_000);
    const report = await drive(clock, engine.shutdown('flatten', { signal: budget.signal }));
    expect(report.booksRead).toBe(false);
    expect(new Set(broker.cancels)).toEqual(new Set([broker.book[1]?.id]));
    expect(report.unfinished.join('; ')).toMatch(
      /no read of the books succeeded: stop order\(s\) s1-\S+ kept/,
    );
  });

  it('flatten keeps reading while only stops are working, and cancels them once a read succeeds', async () => {
    // Checked to fail: without `everRead` in settled(), a stop with only a kept stop
    // counts as done at once, never reads again, and the stop is never cancelled; with
    // the old ordersToCancel, its cancel goes out (repeatedly) while the book is unreadable.
    const { clock, broker, engine } = setUp();
    const { price: _limit, ...limit } = entry('sl');
    await engine.submit({ ...limit, orderType: 'SL-MKT', triggerPrice: 10_500 });
    broker.failBooks = true;
    clock.scheduler.schedule(() => {
      broker.failBooks = false;
    }, 2_000);
    const budget = new AbortController();
    clock.scheduler.schedule(() => budget.abort(), 10_000);
    const report = await drive(clock, engine.shutdown('flatten', { signal: budget.signal }));
    expect(broker.cancels).toEqual([broker.book[0]?.id]);
    expect(report.unfinished).toEqual([]);
  });
});
