import { describe, expect, it } from 'vitest';
import type { PlaceIntent } from '../../domain/intents.ts';
import { checkPlace, type RiskState } from './risk-gate.ts';
import { DEFAULT_RISK_LIMITS, type RiskLimits } from './risk-limits.ts';

const intent = (extra: Partial<PlaceIntent> = {}): PlaceIntent => ({
  kind: 'place',
  id: 'p1',
  instrument: { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ', lotSize: 1, tickSize: 5 },
  side: 'B',
  quantity: 10,
  orderType: 'LMT',
  price: 80_000,
  product: 'I',
  ...extra,
});
const market = (): PlaceIntent => {
  const { price: _price, ...rest } = intent({ orderType: 'MKT' });
  return rest;
};
const state = (extra: Partial<RiskState> = {}): RiskState => ({
  openOrders: 0,
  position: 0,
  placementsToday: 0,
  killed: false,
  quote: { ltp: 80_000, lowerLimit: 72_000, upperLimit: 88_000 },
  ...extra,
});
const limits = (extra: Partial<RiskLimits> = {}): RiskLimits => ({
  ...DEFAULT_RISK_LIMITS,
  ...extra,
});

describe('checkPlace', () => {
  it.each<[string, Partial<PlaceIntent>, Partial<RiskState>, Partial<RiskLimits>, RegExp]>([
    [
      'quantity over the per-order limit',
      { quantity: 101 },
      {},
      { maxOrderQuantity: 100 },
      /per-order limit 100/,
    ],
    [
      'value over the per-order limit',
      { quantity: 100 },
      {},
      { maxOrderValue: 7_999_999 },
      /order value/,
    ],
    ['too many open orders', {}, { openOrders: 5 }, { maxOpenOrders: 5 }, /open orders/],
    [
      'position beyond the instrument limit',
      {},
      { position: 95 },
      { maxPositionPerInstrument: 100 },
      /per-instrument/,
    ],
    ['an entry after the kill switch', {}, { killed: true }, {}, /kill switch/],
    ['a price outside the band', { price: 90_000 }, {}, {}, /outside the price band/],
    [
      'a quantity off the lot size',
      { quantity: 70, instrument: { exchange: 'NFO', token: 1, symbol: 'X', lotSize: 75 } },
      {},
      {},
      /lot size 75/,
    ],
    ['the daily order budget', {}, { placementsToday: 3_000 }, {}, /daily budget/],
  ])('denies %s', (_what, i, s, l, reason) => {
    const verdict = checkPlace(intent(i), state(s), limits(l));
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toMatch(reason);
  });

  it('treats a flip through zero as an entry after the kill switch', () => {
    const verdict = checkPlace(
      intent({ side: 'S', quantity: 15 }),
      state({ killed: true, position: 10 }),
      limits(),
    );
    expect(verdict.ok).toBe(false);
  });

  it('lets an exit through after the kill switch', () => {
    expect(
      checkPlace(intent({ side: 'S' }), state({ killed: true, position: 10 }), limits()).ok,
    ).toBe(true);
  });

  it('rounds prices to the tick towards safety', () => {
    const buy = checkPlace(intent({ price: 80_003 }), state(), limits());
    const sell = checkPlace(
      intent({ side: 'S', price: 80_003 }),
      state({ position: 10 }),
      limits(),
    );
    expect(buy.ok && buy.intent.price).toBe(80_000);
    expect(sell.ok && sell.intent.price).toBe(80_005);
  });

  it('protects a market order as a limit inside the band', () => {
    const v = checkPlace(market(), state(), limits({ marketProtectionPercent: 2 }));
    expect(v.ok && [v.intent.orderType, v.intent.price]).toEqual(['LMT', 81_600]);
    const capped = checkPlace(
      market(),
      state({ quote: { ltp: 80_000, lowerLimit: 72_000, upperLimit: 80_500 } }),
      limits({ marketProtectionPercent: 2 }),
    );
    expect(capped.ok && capped.intent.price).toBe(80_500);
  });
});
