import { describe, expect, it } from 'vitest';
import type { OrderBookRecord, TradeBookRecord } from '../api/schemas/order-records.ts';
import type { PlaceOrderRequest } from '../api/schemas/order-requests.ts';
import { indexOf, type ReconcileStep, reconcile } from './reconcile.ts';
import type { SeenRecord } from './reconcile-order.ts';
import { placeIntent } from './testing/engine-fixtures.ts';
import { type TrackedOrder, trackedOrder } from './tracked-order.ts';

const NOW = 1_000_000;
const CONTEXT = { now: NOW, unknownGraceMs: 10_000 };

/** A tracked LMT buy of 10 at ₹800, as the book first shows it: pending, id `O1`. */
function order(
  overrides: Omit<Partial<TrackedOrder>, 'orderId'> & { orderId?: string | undefined } = {},
): TrackedOrder {
  const { orderId, ...rest } = overrides;
  const made: TrackedOrder = {
    ...trackedOrder({
      strategyId: 's1',
      intentId: 'e1',
      tag: 's1-x-1',
      intent: placeIntent('e1', { quantity: 10, orderType: 'LMT', price: 80_000 }),
      request: {} as PlaceOrderRequest,
      placedAt: 0,
      orderId: 'O1',
      status: 'pending',
    }),
    ...rest,
  };
  // `orderId: undefined` stands for an order whose id was never learnt.
  if ('orderId' in overrides) {
    if (orderId === undefined) delete made.orderId;
    else made.orderId = orderId;
  }
  return made;
}

function record(overrides: Partial<OrderBookRecord> = {}): OrderBookRecord {
  return {
    id: 'O1',
    tags: 's1-x-1',
    orderStatus: 'OPEN',
    quantity: '10',
    price: '800.00',
    fillShares: '0',
    rejectReason: '',
    snoOrderDirection: '',
    snoOrderID: '',
    ...overrides,
  } as OrderBookRecord;
}

function trade(fillID: string, fillQuantity: number, fillShares: number): TradeBookRecord {
  return {
    id: 'O1',
    fillID,
    fillQuantity: String(fillQuantity),
    fillShares: String(fillShares),
    fillPrice: '800.00',
    averagePrice: '800.00',
  } as TradeBookRecord;
}

/** Each step as `kind` or `kind:event` (or `kind:status`), for compact expectations. */
function describeSteps(steps: readonly ReconcileStep[]): string[] {
  return steps.map((s) => {
    if ('event' in s && s.event !== undefined) return `${s.kind}:${s.event.type}`;
    if (s.kind === 'settled') return `settled:${s.seen.status}`;
    return s.kind;
  });
}

interface Case {
  name: string;
  orders: TrackedOrder[];
  book?: OrderBookRecord[];
  trades?: TradeBookRecord[];
  steps: string[];
}

const seenOpen: SeenRecord = {
  orderStatus: 'OPEN',
  quantity: '10',
  price: '800.00',
  fillShares: '0',
  rejectReason: '',
  status: 'open',
  orderQuantity: 10,
  filledQuantity: 0,
};

const cases: Case[] = [
  {
    name: 'first sighting of an open order: accepted, price learnt, opened',
    orders: [order()],
    book: [record()],
    steps: ['update:OrderAccepted', 'update', 'update:OrderOpened', 'update', 'settled:open'],
  },
  {
    name: 'fills in fillShares order; the last completes the order',
    orders: [order({ acceptedSeen: true, openedSeen: true, bookPrice: 80_000 })],
    book: [record({ orderStatus: 'COMPLETE', fillShares: '10' })],
    trades: [trade('f2', 6, 10), trade('f1', 4, 4)],
    steps: [
      'update',
      'update',
      'fill:OrderPartiallyFilled',
      'fill:OrderFilled',
      'settled:complete',
    ],
  },
  {
    name: 'a cancel whose fills the trade book has not shown yet stays open',
    orders: [order({ status: 'open', acceptedSeen: true, openedSeen: true, bookPrice: 80_000 })],
    book: [record({ orderStatus: 'CANCELED', fillShares: '5' })],
    steps: ['update', 'update', 'settled:open'],
  },
  {
    name: 'a rejection is final with its reason',
    orders: [order()],
    book: [record({ orderStatus: 'REJECTED', rejectReason: 'margin' })],
    steps: ['update', 'update', 'update:OrderRejected', 'settled:rejected'],
  },
  {
    name: 'the book shows a changed quantity: a modification',
    orders: [order({ acceptedSeen: true, openedSeen: true, bookPrice: 80_000 })],
    book: [record({ quantity: '7' })],
    steps: ['update:OrderModified', 'update', 'update', 'settled:open'],
  },
  {
    name: 'an order of unknown outcome found by its tag',
    orders: [order({ orderId: undefined, status: 'unknown', unknownSince: NOW })],
    book: [record({ orderStatus: 'PENDING' })],
    steps: ['found', 'update:OrderAccepted', 'update', 'update', 'settled:pending'],
  },
  {
    name: 'an order of unknown outcome absent within the grace period: nothing yet',
    orders: [order({ orderId: undefined, status: 'unknown', unknownSince: NOW - 9_999 })],
    steps: [],
  },
  {
    name: 'an order of unknown outcome absent past the grace period',
    orders: [order({ orderId: undefined, status: 'unknown', unknownSince: NOW - 10_000 })],
    steps: ['absent'],
  },
  {
    name: 'an active order with an id the day book does not list: read its history',
    orders: [order()],
    trades: [trade('f1', 10, 10)],
    steps: ['missing'],
  },
  {
    name: 'the same record again, every fill booked: no step at all',
    orders: [order({ status: 'open', acceptedSeen: true, openedSeen: true, bookPrice: 80_000 })],
    book: [record()],
    steps: [],
  },
  {
    name: 'an earlier attempt turns up under its old tag: a duplicate',
    orders: [order({ tag: 's1-x-2', previousTags: ['s1-x-1'], orderId: 'O2' })],
    book: [record(), record({ id: 'O2', tags: 's1-x-2' })],
    steps: [
      'update:OrderAccepted',
      'update',
      'update:OrderOpened',
      'update',
      'settled:open',
      'duplicate',
    ],
  },
  {
    name: 'a cover order fills and the exchange places its stop leg: adopt and follow it',
    orders: [
      order({
        variety: 'cover',
        status: 'complete',
        filledQuantity: 10,
        fills: new Set(['f1']),
      }),
    ],
    book: [record({ id: 'SL1', tags: 's1-x-1', snoOrderDirection: 'SL', snoOrderID: 'O1' })],
    steps: [
      'adopt:OrderSubmitted',
      'update:OrderAccepted',
      'update',
      'update:OrderOpened',
      'update',
      'settled:open',
    ],
  },
];

describe('reconcile', () => {
  it.each(cases)('$name', ({ orders, book = [], trades = [], steps }) => {
    const index = indexOf(orders);
    const unchangedOpen = orders.find((o) => o.status === 'open' && o.bookPrice !== undefined);
    const seen = new Map<TrackedOrder, SeenRecord>();
    if (unchangedOpen !== undefined) seen.set(unchangedOpen, seenOpen);
    const before = structuredClone(orders);
    const out = reconcile({ ...index, seen }, { orders: book, trades }, CONTEXT);
    expect(describeSteps(out)).toEqual(steps);
    // Pure: the tracked orders are read, never changed.
    expect(orders).toEqual(before);
  });

  it('carries the fill amounts and the final state in the steps', () => {
    const o = order({ acceptedSeen: true, openedSeen: true, bookPrice: 80_000 });
    const out = reconcile(
      indexOf([o]),
      {
        orders: [record({ orderStatus: 'COMPLETE', fillShares: '10' })],
        trades: [trade('f1', 4, 4), trade('f2', 6, 10)],
      },
      CONTEXT,
    );
    const fills = out.filter((s) => s.kind === 'fill');
    expect(fills.map((s) => [s.fillId, s.filledQuantity, s.complete])).toEqual([
      ['f1', 4, false],
      ['f2', 10, true],
    ]);
    expect(fills[1]?.event).toMatchObject({ type: 'OrderFilled', fillPrice: 80_000, at: NOW });
  });

  it('reads the trade book again when a new fill arrives for an unchanged record', () => {
    const o = order({ status: 'open', acceptedSeen: true, openedSeen: true, bookPrice: 80_000 });
    const seen = new Map([[o, seenOpen]]);
    const out = reconcile(
      { ...indexOf([o]), seen },
      { orders: [record()], trades: [trade('f1', 3, 3)] },
      CONTEXT,
    );
    expect(describeSteps(out)).toContain('fill:OrderPartiallyFilled');
  });

  it('names the stop leg after its parent and flips its side', () => {
    const parent = order({ variety: 'cover', status: 'complete', filledQuantity: 10 });
    const [adopt] = reconcile(
      indexOf([parent]),
      {
        orders: [record({ id: 'SL1', quantity: '10', snoOrderDirection: 'SL', snoOrderID: 'O1' })],
        trades: [],
      },
      CONTEXT,
    );
    expect(adopt?.kind).toBe('adopt');
    expect(adopt?.order).toMatchObject({
      intentId: 'e1/stop',
      tag: 's1-x-1/SL',
      orderId: 'SL1',
      status: 'pending',
      system: true,
      intent: { side: 'S', orderType: 'SL-MKT', quantity: 10 },
    });
  });

  it('does not take a late record whose id is already tracked for a duplicate', () => {
    const first = order({ status: 'complete' });
    const again = order({ tag: 's1-x-2', previousTags: ['s1-x-1'], orderId: 'O2' });
    const out = reconcile(indexOf([first, again]), { orders: [record()], trades: [] }, CONTEXT);
    expect(describeSteps(out)).not.toContain('duplicate');
  });
});
