import { describe, expect, it } from 'vitest';
import { checkPlace } from '../../execution/risk/risk-gate.ts';
import { DEFAULT_RISK_LIMITS } from '../../execution/risk/risk-limits.ts';
import { denialReason } from './denial-reason.ts';

describe('denialReason', () => {
  it('names each denial of the risk gate by its rule, without its figures', () => {
    const intent = {
      kind: 'place',
      id: 'e1',
      instrument: { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ' },
      side: 'B',
      quantity: 10,
      orderType: 'LMT',
      price: 80_000,
      product: 'I',
      strategyId: 's',
    } as const;
    const state = {
      openOrders: 0,
      position: 0,
      placementsToday: 0,
      killed: false,
      quote: undefined,
    };
    const reasonOf = (over: object, limits: object = {}) => {
      const v = checkPlace(
        { ...intent, ...over },
        { ...state, ...over },
        { ...DEFAULT_RISK_LIMITS, ...limits },
      );
      if (v.ok) throw new Error('expected a denial');
      return denialReason(v.reason);
    };
    expect(reasonOf({ killed: true })).toBe('kill_switch');
    expect(reasonOf({ quantity: 0 })).toBe('bad_quantity');
    expect(reasonOf({ quantity: 7, instrument: { ...intent.instrument, lotSize: 5 } })).toBe(
      'lot_size',
    );
    expect(reasonOf({}, { maxOrderQuantity: 5 })).toBe('max_order_quantity');
    expect(reasonOf({ openOrders: 5 }, { maxOpenOrders: 5 })).toBe('max_open_orders');
    expect(reasonOf({ position: 100 }, { maxPositionPerInstrument: 100 })).toBe('max_position');
    expect(reasonOf({ placementsToday: 3 }, { maxOrdersPerDay: 3 })).toBe('max_orders_per_day');
    expect(reasonOf({}, { maxOrderValue: 1 })).toBe('max_order_value');
  });

  it('names the engine\'s own denials and leaves the rest as "other"', () => {
    expect(
      denialReason(
        'intraday entry after the square-off time (15:15 IST, 15 min before the close): only exits pass',
      ),
    ).toBe('trading_window');
    expect(denialReason('intent id "a1" was already used')).toBe('duplicate_intent');
    expect(denialReason('no open order for intent "a1"')).toBe('no_open_order');
    expect(denialReason('market closed; not kept: stopping')).toBe('stopping');
    expect(denialReason('something new')).toBe('other');
  });
});
