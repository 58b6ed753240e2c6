import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RefusedError } from '../../src/api/errors/refused-error.ts';
import { SessionError } from '../../src/api/errors/session-error.ts';
import {
  orderBookRecordSchema,
  orderHistoryRecordSchema,
  tradeBookRecordSchema,
} from '../../src/api/schemas/order-records.ts';
import type { PlaceOrderRequest } from '../../src/api/schemas/order-requests.ts';
import { fullQuoteSchema, ohlcvQuoteSchema } from '../../src/api/schemas/quote.ts';
import { TiqsClient } from '../../src/api/tiqs-client.ts';
import { VirtualClock } from '../../src/clock/virtual-clock.ts';
import { type RunningSimulator, startSimulator } from '../../src/sim/http/start-simulator.ts';
import { SIM_HOLIDAYS } from '../../src/sim/sim-holidays.ts';

/**
 * Contract suite: every operation of the project's HTTP client against the simulator over
 * loopback, checking the shapes and formats of api-spec.md. Client and simulator share
 * one auto-advancing virtual clock, so the client's pacing costs no real time.
 */

const MON_0930 = Date.parse('2026-01-05T04:00:00Z');
const TIME_STAMP = /^\d{2}:\d{2}:\d{2} \d{2}-\d{2}-\d{4}$/;
const DATE_TIME = /^\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}$/;
const EPOCH_SECONDS = /^\d{10}$/;
const DECIMAL_2 = /^\d+\.\d{2}$/;

const sbin: Omit<PlaceOrderRequest, 'tags'> & { tags: string } = {
  exchange: 'NSE',
  token: '3045',
  symbol: 'SBIN-EQ',
  quantity: '1200',
  disclosedQty: '0',
  product: 'I',
  transactionType: 'B',
  order: 'MKT',
  price: '0',
  triggerPrice: '0',
  validity: 'DAY',
  tags: 'contract-mkt',
  amo: false,
};

let clock: VirtualClock;
let sim: RunningSimulator;
let client: TiqsClient;

beforeAll(async () => {
  clock = new VirtualClock(MON_0930, { auto: true });
  sim = await startSimulator({ clock, seed: 42 });
  client = new TiqsClient({
    baseUrl: sim.url,
    appId: 'sim-app',
    token: 'sim-token',
    clock,
    retry: { limit: 0 },
  });
});
afterAll(() => sim.close());

describe('simulator contract (TiqsClient over loopback)', () => {
  it('quote: full and ohlcv of one token, integers in paise', async () => {
    const full = await client.quote('full', 3045);
    fullQuoteSchema.parse(full);
    expect(full.token).toBe(3045);
    expect(full.bids).toHaveLength(5);
    expect(full.asks).toHaveLength(5);
    expect(full.ltp).toBeGreaterThan(50_000); // ₹500 and up: paise, not rupees
    expect(full.lowerLimit).toBeLessThan(full.ltp);
    expect(full.upperLimit).toBeGreaterThan(full.ltp);
    expect([32, 43, 45]).toContain(full.netChangeIndicator);
    ohlcvQuoteSchema.parse(await client.quote('ohlcv', 26000));
    expect(await client.quote('ltp', 26009)).toEqual({
      token: 26009,
      ltp: expect.any(Number),
      close: expect.any(Number),
    });
  });

  it('quotes: every mode, in the order of the requested tokens', async () => {
    const tokens = [26009, 3045, 26000, 2885];
    for (const mode of ['ltp', 'ohlcv', 'full'] as const) {
      const quotes = await client.quotes(mode, tokens);
      expect(quotes.map((q) => q.token)).toEqual(tokens);
    }
  });

  it('holidays: the simulator calendar with special sessions', async () => {
    const h = await client.holidays();
    expect(h).toEqual(SIM_HOLIDAYS);
    expect(h.specialTradingDays['08-11-2026']).toEqual(['18:00-19:00']);
  });

  it('index list: NIFTY 50 and NIFTY BANK with string tokens', async () => {
    expect(await client.indexList()).toEqual(
      expect.arrayContaining([
        { name: 'NIFTY 50', token: '26000' },
        { name: 'NIFTY BANK', token: '26009' },
      ]),
    );
  });

  it('option chain symbols, option chain (N CE then N PE) and greeks', async () => {
    const symbols = await client.optionChainSymbols();
    expect(Object.keys(symbols)).toEqual(['NIFTY', 'BANKNIFTY']);
    for (const list of Object.values(symbols)) {
      for (const e of list) expect(e).toMatch(/^\d{2}-[A-Z]{3}-\d{4}$/);
    }
    const expiry = symbols.BANKNIFTY?.[0] ?? '';
    const chain = await client.optionChain({
      token: '26009',
      exchange: 'INDEX',
      count: '4',
      expiry,
    });
    expect(chain.map((c) => c.optionType).join('')).toBe('CECECECEPEPEPEPE');
    for (const c of chain) {
      expect(c).toMatchObject({
        exchange: 'NFO',
        tickSize: '0.05',
        lotSize: '30',
        pricePrecision: '2',
      });
      expect(c.strikePrice).toMatch(DECIMAL_2);
    }
    const greeks = await client.greeks(chain.map((c) => Number(c.token)));
    expect(greeks).toHaveLength(8);
    for (const g of greeks) expect(g.iv).toBeLessThan(1);
  });

  it('market order: spec §3 history newest first, books with formats and tags', async () => {
    const placed = await client.placeOrder('regular', sbin);
    expect(placed.orderNo).toMatch(/^\d+$/);
    expect(placed.requestTime).toMatch(TIME_STAMP);

    // 1,200 shares may need more than the five levels of one instant: let market time pass.
    let history = await client.orderHistory(placed.orderNo);
    for (let i = 0; i < 20 && history[0]?.orderStatus !== 'COMPLETE'; i++) {
      clock.advanceBy(1_000);
      history = await client.orderHistory(placed.orderNo);
    }
    for (const h of history) orderHistoryRecordSchema.parse(h);
    const oldestFirst = [...history].reverse();
    expect(oldestFirst.slice(0, 3).map((h) => [h.reportType, h.orderStatus])).toEqual([
      ['PendingNew', 'PENDING'],
      ['NewAck', 'PENDING'],
      ['New', 'OPEN'],
    ]);
    expect(oldestFirst[0]).toMatchObject({ fillShares: '', averagePrice: '', exchangeOrderID: '' });
    expect(oldestFirst[2]?.exchangeOrderID).not.toBe('');
    const fills = oldestFirst.slice(3);
    expect(fills.length).toBeGreaterThan(1);
    expect(fills.every((f) => f.reportType === 'Fill')).toBe(true);
    expect(fills.at(-1)).toMatchObject({ orderStatus: 'COMPLETE', fillShares: '1200' });
    expect(fills.slice(0, -1).every((f) => f.orderStatus === 'OPEN')).toBe(true);
    const cumulative = fills.map((f) => Number(f.fillShares));
    expect(cumulative).toEqual([...cumulative].sort((a, b) => a - b));
    for (const h of history) {
      expect(h.timeStamp).toMatch(TIME_STAMP);
      expect(h.orderTime).toMatch(EPOCH_SECONDS);
      expect(h.status).toBe('Ok');
      expect(h.retention).toBe('DAY');
      if (h.exchangeUpdateTime !== '') expect(h.exchangeUpdateTime).toMatch(DATE_TIME);
      expect(h.price).toMatch(DECIMAL_2);
    }
    expect(fills.at(-1)?.averagePrice).toMatch(DECIMAL_2);

    const book = await client.orderBook();
    const rec = book.find((o) => o.id === placed.orderNo);
    expect(rec).toBeDefined();
    orderBookRecordSchema.parse(rec);
    expect(rec).toMatchObject({
      tags: 'contract-mkt',
      orderStatus: 'COMPLETE',
      fillShares: '1200',
    });

    const trades = (await client.tradeBook()).filter((t) => t.id === placed.orderNo);
    expect(trades).toHaveLength(fills.length);
    for (const t of trades) {
      tradeBookRecordSchema.parse(t);
      expect(t.fillTime).toMatch(DATE_TIME);
      expect(t.timeStamp).toMatch(TIME_STAMP);
      expect(t.fillPrice).toMatch(DECIMAL_2);
      expect(t.fillID).not.toBe('');
      expect(t.remarks).toBe('contract-mkt');
    }
    // `tags` is echoed too, beyond the spec's field list (the client's schema strips it).
    const raw = await fetch(`${sim.url}/user/trades`, {
      headers: { appId: 'sim-app', token: 'sim-token' },
    });
    const rawTrades = ((await raw.json()) as { data: Array<{ id: string; tags: string }> }).data;
    expect(
      rawTrades.filter((t) => t.id === placed.orderNo).every((t) => t.tags === 'contract-mkt'),
    ).toBe(true);
    expect(trades.reduce((a, t) => a + Number(t.fillQuantity), 0)).toBe(1200);
  });

  it('limit order: rests, modifies, cancels with the accepted message', async () => {
    const q = await client.quote('ltp', 3045);
    const far = (Math.floor((q.ltp * 0.9) / 5) * 5) / 100;
    const req = {
      ...sbin,
      order: 'LMT' as const,
      quantity: '5',
      price: far.toFixed(2),
      tags: 'contract-lmt',
    };
    const placed = await client.placeOrder('regular', req);
    const { symbol: _symbol, ...modifyBase } = req;
    const modified = await client.modifyOrder('regular', placed.orderNo, {
      ...modifyBase,
      price: (far - 0.05).toFixed(2),
      bookProfitPrice: '0',
    });
    expect(modified.message).toMatch(/accepted/i);
    const history = await client.orderHistory(placed.orderNo);
    expect(history[0]).toMatchObject({ reportType: 'Replaced', orderStatus: 'OPEN' });
    expect(history[0]?.price).toBe((far - 0.05).toFixed(2));
    const cancelled = await client.cancelOrder('regular', placed.orderNo);
    expect(cancelled.message).toMatch(/cancel.*accepted/i);
    const book = await client.orderBook();
    expect(book.find((o) => o.id === placed.orderNo)).toMatchObject({
      orderStatus: 'CANCELED',
      cancelQuantity: '5',
    });
    const again = client.cancelOrder('regular', placed.orderNo);
    await expect(again).rejects.toBeInstanceOf(RefusedError);
    await expect(again).rejects.toMatchObject({ status: 400, errorCode: 'BadRequestError' });
  });

  it('rejected order: REJECTED with a reason in the books', async () => {
    const placed = await client.placeOrder('regular', {
      ...sbin,
      order: 'LMT',
      price: '801.03',
      tags: 'contract-rej',
    });
    const rec = (await client.orderBook()).find((o) => o.id === placed.orderNo);
    expect(rec).toMatchObject({
      orderStatus: 'REJECTED',
      rejectReason: expect.stringMatching(/tick/),
    });
  });

  it('cover order: stop leg follows the main leg', async () => {
    const q = await client.quote('ltp', 3045);
    const stop = (Math.floor((q.ltp * 0.98) / 5) * 5) / 100;
    const placed = await client.placeOrder('cover', {
      ...sbin,
      quantity: '10',
      bookLossPrice: stop.toFixed(2),
      tags: 'contract-cover',
    });
    const book = await client.orderBook();
    const legs = book.filter((o) => o.tags === 'contract-cover');
    expect(legs).toHaveLength(2);
    const leg = legs.find((o) => o.id !== placed.orderNo);
    expect(leg).toMatchObject({
      order: 'SL-MKT',
      transactionType: 'S',
      orderTriggerPrice: stop.toFixed(2),
      orderStatus: 'OPEN',
      snoOrderID: placed.orderNo,
    });
  });

  it('failures: error envelope as typed client errors', async () => {
    await expect(client.orderHistory('42')).rejects.toMatchObject({
      status: 404,
      errorCode: 'NotFoundError',
    });
    const stranger = new TiqsClient({
      baseUrl: sim.url,
      appId: 'sim-app',
      token: 'wrong',
      clock,
      retry: { limit: 0 },
    });
    await expect(stranger.indexList()).rejects.toBeInstanceOf(SessionError);
  });
});
