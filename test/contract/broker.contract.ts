import { afterEach, beforeEach, describe, expect, it, type RunnerTestSuite } from 'vitest';
import { RefusedError } from '../../src/api/errors/refused-error.ts';
import {
  orderBookRecordSchema,
  tradeBookRecordSchema,
} from '../../src/api/schemas/order-records.ts';
import type { PlaceOrderRequest } from '../../src/api/schemas/order-requests.ts';
import { formatRupees, parseRupees } from '../../src/domain/money.ts';
import type { Variety } from '../../src/domain/order-params.ts';
import type { BrokerVenue, MakeVenue } from './broker-venues.ts';

/**
 * The {@link Broker} port's contract, written once and run against every implementation
 * (TiqsClient over HTTP to the simulator, PaperBroker, SimExchange), in the manner of
 * hono's `src/router/common.case.test.ts`: each implementation's test file calls
 * {@link runBrokerContract} with a skip list whose entries state their reason.
 * Everything runs on the venue's virtual clock: time moves only when a test says so.
 */

/** Tests an implementation leaves out, and why. */
export interface ContractSkip {
  reason: string;
  /** Test names as `describe > it` below the suite's own name. */
  tests: string[];
}

/** Monday 5 January 2026, 10:00 IST: a session runs. */
const MON_1000 = Date.parse('2026-01-05T10:00:00+05:30');
const MINUTE = 60_000;
const SBIN = 3045;
const TICK = 5;
const RUPEE_TEXT = /^\d+\.\d{2}$/;

const order = (extra: Partial<PlaceOrderRequest> = {}): PlaceOrderRequest => ({
  exchange: 'NSE',
  token: String(SBIN),
  symbol: 'SBIN-EQ',
  quantity: '10',
  disclosedQty: '0',
  product: 'I',
  transactionType: 'B',
  order: 'MKT',
  price: '0',
  triggerPrice: '0',
  validity: 'DAY',
  tags: 'ctr',
  amo: false,
  ...extra,
});

const { symbol: _symbol, ...modifyBase } = order();

/** The suite path of a test, below the contract's own `describe`. */
function testName(suite: RunnerTestSuite | undefined, name: string): string {
  const names: string[] = [];
  for (let s = suite; s !== undefined; s = s.suite) names.unshift(s.name);
  return [...names.slice(2), name].join(' > ');
}

/**
 * Runs the broker contract against venues made by `makeVenue`, one fresh venue per test.
 *
 * @example
 * ```ts
 * runBrokerContract('PaperBroker', paperVenue, { skip: [] });
 * ```
 */
export function runBrokerContract(
  name: string,
  makeVenue: MakeVenue,
  options: { skip?: ContractSkip[] } = {},
): void {
  describe(`Broker contract: ${name}`, () => {
    let venue: BrokerVenue;

    beforeEach(async ({ task, skip }) => {
      const full = testName(task.suite, task.name);
      const skipped = options.skip?.find((s) => s.tests.includes(full));
      if (skipped !== undefined) {
        skip(skipped.reason);
        return;
      }
      venue = await makeVenue(MON_1000);
    });
    afterEach(async () => {
      await venue?.close();
    });

    /** A buy limit `ticks` below the best bid: far enough that it rests. */
    const restingPrice = (ticks: number): string =>
      formatRupees((venue.quote(SBIN).bids[0]?.price ?? 0) - ticks * TICK);
    const bookRecord = async (id: string) =>
      (await venue.broker.orderBook()).find((r) => r.id === id);
    const place = async (extra: Partial<PlaceOrderRequest>, variety: Variety = 'regular') =>
      (await venue.broker.placeOrder(variety, order(extra))).orderNo;

    describe('lifecycle', () => {
      it('a limit below the market rests OPEN, and a cancel makes it CANCELED', async () => {
        const id = await place({ order: 'LMT', price: restingPrice(20), tags: 'rest-1' });
        await venue.advance(MINUTE);
        expect(await bookRecord(id)).toMatchObject({ orderStatus: 'OPEN', fillShares: '' });
        expect(await venue.broker.cancelOrder('regular', id)).toEqual({
          message: expect.any(String),
        });
        expect(await bookRecord(id)).toMatchObject({
          orderStatus: 'CANCELED',
          cancelQuantity: '10',
        });
        expect(await venue.broker.tradeBook()).toEqual([]);
      });

      it('a market order fills; the trade book shows each fill as rupee text, paise-exact', async () => {
        const asks = venue.quote(SBIN).asks;
        const id = await place({ tags: 'mkt-1' });
        const trades = (await venue.broker.tradeBook()).filter((t) => t.id === id);
        expect(trades.length).toBeGreaterThan(0);
        let filled = 0;
        let value = 0;
        for (const t of [...trades].reverse()) {
          expect(t.fillPrice).toMatch(RUPEE_TEXT);
          const paise = parseRupees(t.fillPrice);
          expect(paise % TICK).toBe(0);
          expect(asks.map((l) => l.price)).toContain(paise);
          filled += Number(t.fillQuantity);
          value += paise * Number(t.fillQuantity);
          expect(t.fillShares).toBe(String(filled));
        }
        expect(filled).toBe(10);
        const rec = await bookRecord(id);
        expect(rec).toMatchObject({ orderStatus: 'COMPLETE', fillShares: '10' });
        expect(parseRupees(rec?.averagePrice ?? '')).toBe(Math.round(value / filled));
      });

      it('the history of a filled order runs PendingNew to Fill, newest first', async () => {
        const id = await place({ tags: 'hist-1' });
        const history = await venue.broker.orderHistory(id);
        expect(history.at(-1)?.reportType).toBe('PendingNew');
        expect(history[0]).toMatchObject({ reportType: 'Fill', orderStatus: 'COMPLETE' });
        expect(history.map((h) => h.remarks)).toEqual(history.map(() => 'hist-1'));
      });

      it('a modification moves a resting order’s price', async () => {
        const id = await place({ order: 'LMT', price: restingPrice(40) });
        const price = restingPrice(30);
        await venue.broker.modifyOrder('regular', id, { ...modifyBase, order: 'LMT', price });
        expect(await bookRecord(id)).toMatchObject({ orderStatus: 'OPEN', price });
        const history = await venue.broker.orderHistory(id);
        expect(history[0]).toMatchObject({ reportType: 'Replaced', price });
      });

      it('a cover order modified at the regular path without a stop keeps its stop price', async () => {
        const stop = formatRupees((venue.quote(SBIN).bids[0]?.price ?? 0) - 400 * TICK);
        const id = await place(
          { order: 'LMT', price: restingPrice(40), bookLossPrice: stop, tags: 'cover-mod' },
          'cover',
        );
        const price = restingPrice(30);
        // pytiqs modifies every order at /order/regular/<id> and may leave the stop out.
        await venue.broker.modifyOrder('regular', id, { ...modifyBase, order: 'LMT', price });
        expect(await bookRecord(id)).toMatchObject({
          orderStatus: 'OPEN',
          price,
          bookLossPrice: stop,
        });
      });

      it('a final order cannot be cancelled or modified: refused, unchanged', async () => {
        const id = await place({});
        const refused = { status: 400, errorCode: 'BadRequestError' };
        const cancel = venue.broker.cancelOrder('regular', id);
        await expect(cancel).rejects.toBeInstanceOf(RefusedError);
        await expect(cancel).rejects.toMatchObject(refused);
        await expect(
          venue.broker.modifyOrder('regular', id, { ...modifyBase, order: 'LMT', price: '1.00' }),
        ).rejects.toMatchObject(refused);
        expect(await bookRecord(id)).toMatchObject({
          orderStatus: 'COMPLETE',
          cancelQuantity: '0',
        });
      });
    });

    describe('books', () => {
      it('order book and trade book records have the spec’s fields, all text', async () => {
        const filled = await place({ tags: 'shape-1' });
        const resting = await place({ order: 'LMT', price: restingPrice(20), tags: 'shape-2' });
        const book = await venue.broker.orderBook();
        expect(book.map((r) => r.id)).toEqual([resting, filled]); // newest first
        for (const r of book) {
          orderBookRecordSchema.parse(r);
          for (const v of Object.values(r)) expect(typeof v).toBe('string');
          expect(r).toMatchObject({ token: String(SBIN), tickSize: '0.05', lotSize: '1' });
        }
        expect(book[0]?.price).toMatch(RUPEE_TEXT);
        for (const t of await venue.broker.tradeBook()) {
          tradeBookRecordSchema.parse(t);
          expect(t).toMatchObject({ id: filled, token: String(SBIN), transactionType: 'B' });
        }
      });

      it('tags are echoed: order book `tags`, history and trade book `remarks`', async () => {
        const id = await place({ tags: 'strat-a:p7' });
        expect((await bookRecord(id))?.tags).toBe('strat-a:p7');
        expect((await venue.broker.orderHistory(id))[0]?.remarks).toBe('strat-a:p7');
        const trades = (await venue.broker.tradeBook()).filter((t) => t.id === id);
        expect(trades.map((t) => t.remarks)).toEqual(trades.map(() => 'strat-a:p7'));
      });

      it('a filled cover order has a stop-market leg on the other side at its stop price', async () => {
        const stop = formatRupees((venue.quote(SBIN).bids[0]?.price ?? 0) - 200 * TICK);
        const main = await place({ tags: 'cover-1', bookLossPrice: stop }, 'cover');
        const book = await venue.broker.orderBook();
        const leg = book.find((r) => r.snoOrderID === main && r.id !== main);
        expect(leg).toMatchObject({
          orderStatus: 'OPEN',
          order: 'SL-MKT',
          transactionType: 'S',
          quantity: '10',
          orderTriggerPrice: stop,
          snoOrderDirection: 'SL',
          tags: 'cover-1',
        });
        expect(book.find((r) => r.id === main)).toMatchObject({ orderStatus: 'COMPLETE' });
      });

      it('across an IST day change the book lists today’s orders and those still waiting', async () => {
        const done = await place({ tags: 'mon-mkt' });
        const expires = await place({ order: 'LMT', price: restingPrice(800), tags: 'mon-lmt' });
        await venue.advance(8 * 60 * MINUTE); // Monday 18:00: closed
        expect(await bookRecord(expires)).toMatchObject({ orderStatus: 'CANCELED' });
        const amoLmt = await place({ order: 'LMT', price: restingPrice(800), amo: true });
        const amoMkt = await place({ amo: true, tags: 'amo-mkt' });
        expect((await venue.broker.orderBook()).map((r) => r.id)).toEqual([
          amoMkt,
          amoLmt,
          expires,
          done,
        ]);
        await venue.advance(15 * 60 * MINUTE + 30 * MINUTE); // Tuesday 09:30
        const tuesday = await place({ order: 'LMT', price: restingPrice(40), tags: 'tue' });
        const book = await venue.broker.orderBook();
        // The after-market orders belong to Tuesday's session, filled or still resting.
        expect(book.map((r) => [r.id, r.orderStatus])).toEqual([
          [tuesday, 'OPEN'],
          [amoMkt, 'COMPLETE'],
          [amoLmt, 'OPEN'],
        ]);
        const trades = await venue.broker.tradeBook();
        expect(new Set(trades.map((t) => t.id))).toEqual(new Set([amoMkt]));
        // Monday's orders are out of the day's book, not gone: their history still reads.
        expect((await venue.broker.orderHistory(done))[0]?.orderStatus).toBe('COMPLETE');
        expect((await venue.broker.orderHistory(expires))[0]?.orderStatus).toBe('CANCELED');
      });
    });
  });
}
