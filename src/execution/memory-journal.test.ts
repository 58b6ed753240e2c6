import { describe, expect, it } from 'vitest';
import type { OrderEvent } from '../domain/order-events.ts';
import { type JournalFill, MemoryJournal } from './journal.ts';
import { trackedOrder } from './tracked-order.ts';

const fill: JournalFill = {
  fillId: 'f1',
  tag: 't1',
  strategyId: 's',
  token: 3045,
  symbol: 'SBIN-EQ',
  side: 'B',
  quantity: 10,
  price: 80_000,
  at: 1,
};

const order = trackedOrder({
  strategyId: 's',
  intentId: 'i1',
  tag: 't1',
  intent: {
    kind: 'place',
    id: 'i1',
    instrument: { token: 3045, exchange: 'NSE', symbol: 'SBIN-EQ' },
    side: 'B',
    quantity: 10,
    orderType: 'MKT',
    product: 'I',
  },
  request: {} as never,
  placedAt: 1,
});

const event = {
  type: 'OrderSubmitted',
  strategyId: 's',
  intentId: 'i1',
  tag: 't1',
  at: 1,
} as OrderEvent;

describe('MemoryJournal', () => {
  it('keeps a copy of each order as written, and every event, by default', () => {
    const journal = new MemoryJournal();
    expect(journal.commit({ orders: [order], event, at: 1 })).toBe(true);
    order.status = 'open';
    expect(journal.load().orders.map((o) => o.status)).toEqual(['submitting']);
    expect(journal.events).toEqual([event]);
    order.status = 'submitting';
  });

  it('without history (a backtest) keeps no orders or events, but still books a fill once', () => {
    const journal = new MemoryJournal({ history: false });
    expect(journal.commit({ orders: [order], fill, event, at: 1 })).toBe(true);
    expect(journal.commit({ orders: [order], fill, event, at: 2 })).toBe(false);
    expect(journal.events).toEqual([]);
    expect(journal.load()).toEqual({ orders: [], fills: [fill] });
    journal.setMeta('k', 'v');
    expect(journal.getMeta('k')).toBe('v');
  });
});
