import { describe, expect, it } from 'vitest';
import type { Instrument, RoutedIntent } from '../domain/intents.ts';
import { RejectionLog } from './rejection-log.ts';

const sbin: Instrument = { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ' };
const buy: RoutedIntent = {
  kind: 'place',
  id: 'e1',
  strategyId: 'sma',
  instrument: sbin,
  side: 'S',
  quantity: 10,
  orderType: 'MKT',
  product: 'I',
};

describe('RejectionLog', () => {
  it('lists a broker rejection with the facts of the intent it names', () => {
    const log = new RejectionLog();
    log.onIntent(buy);
    log.onEvent({
      type: 'OrderRejected',
      strategyId: 'sma',
      intentId: 'e1',
      tag: 't1',
      at: 5,
      reason: 'no market data yet',
    });
    expect(log.list).toEqual([
      {
        at: 5,
        strategy: 'sma',
        token: 3045,
        symbol: 'SBIN-EQ',
        side: 'S',
        quantity: 10,
        kind: 'rejected',
        reason: 'no market data yet',
      },
    ]);
    expect([log.rejected, log.denied]).toEqual([1, 0]);
  });

  it('lists a denial, and a denied modify takes its facts from the order it targets', () => {
    const log = new RejectionLog();
    log.onEvent({
      type: 'OrderDenied',
      strategyId: 'sma',
      intentId: 'e1',
      at: 1,
      intent: buy,
      reason: 'risk',
    });
    log.onEvent({
      type: 'OrderSubmitted',
      strategyId: 'sma',
      intentId: 'e2',
      tag: 't2',
      at: 2,
      intent: { ...buy, id: 'e2', side: 'B' },
    });
    log.onEvent({
      type: 'OrderDenied',
      strategyId: 'sma',
      intentId: 'm1',
      at: 3,
      intent: { kind: 'modify', id: 'm1', target: 'e2', quantity: 4 },
      reason: 'paused',
    });
    expect(log.list.map((r) => [r.kind, r.token, r.side, r.quantity, r.reason])).toEqual([
      ['denied', 3045, 'S', 10, 'risk'],
      ['denied', 3045, 'B', 4, 'paused'],
    ]);
    expect([log.rejected, log.denied]).toEqual([0, 2]);
  });

  it('makes up no side or size where nothing said them (a square-off of everything)', () => {
    const log = new RejectionLog();
    log.onEvent({
      type: 'OrderDenied',
      strategyId: 'sma',
      intentId: 's1',
      at: 1,
      intent: { kind: 'squareOff', id: 's1', reason: 'eod' },
      reason: 'paused',
    } as never);
    log.onEvent({
      type: 'OrderRejected',
      strategyId: 'sma',
      intentId: 'x9',
      tag: 't',
      at: 2,
      reason: 'no',
    });
    expect(log.list.map((r) => [r.token, r.side, r.quantity])).toEqual([
      [0, undefined, undefined],
      [0, undefined, undefined],
    ]);
  });

  it('ignores fills and cancellations', () => {
    const log = new RejectionLog();
    log.onEvent({
      type: 'OrderCancelled',
      strategyId: 'sma',
      intentId: 'e1',
      tag: 't',
      at: 1,
      filledQuantity: 0,
    });
    expect(log.list).toEqual([]);
  });
});
