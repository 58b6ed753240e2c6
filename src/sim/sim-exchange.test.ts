import { describe, expect, it } from 'vitest';
import type { PlaceOrderRequest } from '../api/schemas/order-requests.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { ALWAYS_OPEN } from '../domain/market-sessions.ts';
import { parseRupees } from '../domain/money.ts';
import { SimExchange } from './sim-exchange.ts';

/** Monday 5 Jan 2026, 09:30 IST. */
const MON_0930 = Date.parse('2026-01-05T04:00:00Z');
const MIN = 60_000;

const buy: PlaceOrderRequest = {
  exchange: 'NSE',
  token: '3045',
  symbol: 'SBIN-EQ',
  quantity: '10',
  disclosedQty: '0',
  product: 'I',
  transactionType: 'B',
  order: 'MKT',
  price: '0',
  triggerPrice: '0',
  validity: 'DAY',
  tags: 'x',
  amo: false,
};

function run(seed: number) {
  const clock = new VirtualClock(MON_0930);
  const ex = new SimExchange({ clock, seed });
  const out: unknown[] = [];
  out.push(ex.quotes('full', [26000, 26009, 3045, 40040]));
  const placed = ex.placeOrder('regular', {
    ...buy,
    order: 'LMT',
    price: '799.00',
    quantity: '400',
  });
  for (let i = 0; i < 30; i++) {
    clock.advanceBy(MIN);
    out.push(ex.quotes('full', [3045, 26000]));
  }
  out.push(ex.orderHistory(placed.orderNo), ex.tradeBook());
  return JSON.stringify(out);
}

describe('SimExchange', () => {
  it('gives identical data for the same seed, instants and requests', () => {
    expect(run(7)).toBe(run(7));
    expect(run(7)).not.toBe(run(8));
  });

  it('moves prices during sessions and holds them still outside', () => {
    const clock = new VirtualClock(MON_0930);
    const ex = new SimExchange({ clock, seed: 3 });
    const p0 = ex.quote('ltp', 3045).ltp;
    clock.advanceBy(30 * MIN);
    const p1 = ex.quote('ltp', 3045).ltp;
    expect(p1).not.toBe(p0);
    clock.advanceTo(Date.parse('2026-01-05T10:30:00Z')); // 16:00 IST, closed
    const atClose = ex.quote('full', 26000);
    clock.advanceBy(60 * MIN);
    expect(ex.quote('full', 26000).ltp).toBe(atClose.ltp);
    // Republic Day (26 Jan, Monday) is a holiday: no movement all day.
    clock.advanceTo(Date.parse('2026-01-25T20:00:00Z'));
    const before = ex.quote('ltp', 26009).ltp;
    clock.advanceTo(Date.parse('2026-01-26T12:00:00Z'));
    expect(ex.quote('ltp', 26009).ltp).toBe(before);
    // The Budget Sunday (1 Feb) has a full session.
    clock.advanceTo(Date.parse('2026-02-01T04:00:00Z'));
    const sunday = ex.quote('ltp', 26009).ltp;
    clock.advanceBy(10 * MIN);
    expect(ex.quote('ltp', 26009).ltp).not.toBe(sunday);
  });

  it('resets the day: open, previous close, volume', () => {
    const clock = new VirtualClock(MON_0930);
    const ex = new SimExchange({ clock, seed: 3 });
    clock.advanceTo(Date.parse('2026-01-05T10:00:00Z')); // 15:30 IST
    const dayOne = ex.quote('full', 3045);
    clock.advanceTo(Date.parse('2026-01-06T03:50:00Z')); // Tue 09:20 IST
    const dayTwo = ex.quote('full', 3045);
    expect(dayTwo.close).toBe(dayOne.ltp);
    expect(dayTwo.volume).toBeLessThan(dayOne.volume);
    expect(dayTwo.lowerLimit).toBe(Math.ceil((dayOne.ltp * 0.8) / 5) * 5);
  });

  it('rejects regular orders while closed and fills AMO orders at the next open', () => {
    const clock = new VirtualClock(Date.parse('2026-01-05T12:00:00Z'));
    const ex = new SimExchange({ clock });
    const closed = ex.placeOrder('regular', buy);
    const amo = ex.placeOrder('regular', { ...buy, amo: true });
    expect(ex.orderHistory(closed.orderNo)[0]).toMatchObject({
      orderStatus: 'REJECTED',
      rejectReason: expect.stringMatching(/closed/),
    });
    expect(ex.orderHistory(amo.orderNo)[0]?.orderStatus).toBe('PENDING');
    clock.advanceTo(Date.parse('2026-01-06T03:46:00Z'));
    const history = ex.orderHistory(amo.orderNo);
    expect(history[0]).toMatchObject({ orderStatus: 'COMPLETE', fillShares: '10' });
    expect(history.find((h) => h.reportType === 'New')?.timeStamp).toBe('09:15:00 06-01-2026');
  });

  it('prices options by Black–Scholes, consistent with the index', () => {
    const clock = new VirtualClock(MON_0930);
    const ex = new SimExchange({ clock, seed: 5 });
    clock.advanceBy(20 * MIN);
    const expiry = ex.optionChainSymbols().NIFTY?.[2] ?? '';
    const chain = ex.optionChain({ token: '26000', exchange: 'INDEX', count: '5', expiry });
    expect(chain.map((c) => c.optionType)).toEqual([
      ...Array(5).fill('CE'),
      ...Array(5).fill('PE'),
    ]);
    const spot = ex.quote('ltp', 26000).ltp;
    const strikes = chain.slice(0, 5).map((c) => parseRupees(c.strikePrice));
    expect(
      strikes
        .map((k) => Math.abs(k - spot))
        .indexOf(Math.min(...strikes.map((k) => Math.abs(k - spot)))),
    ).toBe(2);
    const calls = ex.quotes(
      'ltp',
      chain.slice(0, 5).map((c) => Number(c.token)),
    );
    const puts = ex.quotes(
      'ltp',
      chain.slice(5).map((c) => Number(c.token)),
    );
    const greeks = ex.greeks(chain.map((c) => Number(c.token)));
    const years = (Date.parse('2026-01-27T10:00:00Z') - clock.now()) / (365 * 86_400_000);
    strikes.forEach((k, i) => {
      const c = calls[i]?.ltp ?? 0;
      const p = puts[i]?.ltp ?? 0;
      // Put-call parity, up to rounding both premiums to the 0.05 tick.
      expect(Math.abs(c - p - (spot - k * Math.exp(-0.065 * years)))).toBeLessThanOrEqual(6);
      expect(greeks[i]?.delta).toBeGreaterThan(0);
      expect(greeks[i + 5]?.delta).toBeLessThan(0);
      expect(greeks[i]?.iv).toBeGreaterThan(0.05);
      expect(greeks[i]?.iv).toBeLessThan(0.5);
    });
    expect(calls[0]?.ltp).toBeGreaterThan(calls[4]?.ltp ?? 0);
  });

  it('lists weekly and monthly expiries as DD-MON-YYYY', () => {
    const ex = new SimExchange({ clock: new VirtualClock(MON_0930) });
    expect(ex.optionChainSymbols()).toEqual({
      NIFTY: ['06-JAN-2026', '13-JAN-2026', '27-JAN-2026', '24-FEB-2026'],
      BANKNIFTY: ['06-JAN-2026', '13-JAN-2026', '27-JAN-2026', '24-FEB-2026'],
    });
    expect(ex.indexList()).toEqual([
      { name: 'NIFTY 50', token: '26000' },
      { name: 'NIFTY BANK', token: '26009' },
    ]);
  });

  it('moves expiries off holidays (Holi, Tuesday 3 Mar, moves to Monday 2 Mar)', () => {
    const ex = new SimExchange({ clock: new VirtualClock(Date.parse('2026-02-25T04:00:00Z')) });
    expect(ex.optionChainSymbols().NIFTY).toContain('02-MAR-2026');
  });

  it('runs on an always-open market across midnight', () => {
    const clock = new VirtualClock(Date.parse('2026-01-04T18:00:00Z')); // Sunday 23:30 IST
    const ex = new SimExchange({ clock, hours: ALWAYS_OPEN });
    const placed = ex.placeOrder('regular', buy);
    expect(ex.orderHistory(placed.orderNo)[0]?.orderStatus).toBe('COMPLETE');
    clock.advanceBy(60 * MIN);
    expect(ex.orderBook()).toHaveLength(0);
    expect(ex.tradeBook()).toHaveLength(0);
  });

  it('keeps quote prices within the band and depth on the right sides', () => {
    const clock = new VirtualClock(MON_0930);
    const ex = new SimExchange({ clock, seed: 11 });
    clock.advanceBy(60 * MIN);
    for (const token of [3045, 2885, 40040, 60041]) {
      const q = ex.quote('full', token);
      expect(q.bids).toHaveLength(5);
      expect(q.asks).toHaveLength(5);
      expect(q.ltp).toBeGreaterThanOrEqual(q.lowerLimit);
      expect(q.ltp).toBeLessThanOrEqual(q.upperLimit);
      expect(q.bids[0]?.price).toBeLessThan(q.ltp);
      expect(q.asks[0]?.price).toBeGreaterThan(q.ltp);
      expect(q.low).toBeLessThanOrEqual(q.ltp);
      expect(q.high).toBeGreaterThanOrEqual(q.ltp);
    }
    const index = ex.quote('full', 26000);
    expect(index.bids.every((l) => l.price === 0 && l.quantity === 0)).toBe(true);
    expect(index.upperLimit).toBe(0);
  });
});
