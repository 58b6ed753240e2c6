import { describe, expect, it } from 'vitest';
import type { OpenOrder } from '../domain/order-events.ts';
import { planTarget } from './target-position.ts';

/** A working order of SBIN: `filled` of `quantity` done. */
const order = (
  intentId: string,
  side: 'B' | 'S',
  quantity: number,
  extra: Partial<OpenOrder> = {},
): OpenOrder => ({
  intentId,
  token: 3045,
  symbol: 'SBIN-EQ',
  side,
  quantity,
  filledQuantity: 0,
  orderType: 'MKT',
  product: 'I',
  status: 'open',
  system: false,
  ...extra,
});

const B = (quantity: number) => ({ side: 'B', quantity });
const S = (quantity: number) => ({ side: 'S', quantity });

describe('planTarget', () => {
  // How this was checked: with the reversal not split (one order of the difference),
  // the long→short rows fail; with working orders not counted, the "on its way" rows
  // place again; with away orders kept, their rows' cancels are missing.
  it.each<
    [string, number, OpenOrder[], number, string[], Array<{ side: string; quantity: number }>]
  >([
    ['flat → long', 0, [], 10, [], [B(10)]],
    ['flat → short', 0, [], -10, [], [S(10)]],
    ['long → flat', 10, [], 0, [], [S(10)]],
    ['long → longer', 10, [], 15, [], [B(5)]],
    ['long → less long', 10, [], 4, [], [S(6)]],
    ['long → short: exit, then entry', 10, [], -5, [], [S(10), S(5)]],
    ['short → long: exit, then entry', -5, [], 10, [], [B(5), B(10)]],
    ['already there', 10, [], 10, [], []],
    ['flat, and flat wanted', 0, [], 0, [], []],
    ['a buy on its way to the target', 0, [order('p1', 'B', 10)], 10, [], []],
    [
      'a partly filled buy on its way',
      4,
      [order('p1', 'B', 10, { filledQuantity: 4 })],
      10,
      [],
      [],
    ],
    [
      'a partly filled buy, target raised',
      4,
      [order('p1', 'B', 10, { filledQuantity: 4 })],
      12,
      [],
      [B(2)],
    ],
    ['a buy working away from flat', 0, [order('p1', 'B', 10)], 0, ['p1'], []],
    ['a buy working away from short', 0, [order('p1', 'B', 10)], -10, ['p1'], [S(10)]],
    ['a buy past the target', 0, [order('p1', 'B', 10)], 5, ['p1'], [B(5)]],
    [
      'two buys: the first counts, the second overshoots',
      0,
      [order('p1', 'B', 6), order('p2', 'B', 6)],
      10,
      ['p2'],
      [B(4)],
    ],
    [
      'a stop leg is left alone',
      10,
      [order('p1/sl', 'S', 10, { orderType: 'SL-MKT', triggerPrice: 79_000 })],
      10,
      [],
      [],
    ],
    [
      'the framework square-off counts and is never cancelled',
      10,
      [order('auto-eod-1:3045', 'S', 10, { system: true })],
      10,
      [],
      [B(10)],
    ],
    [
      'the square-off already takes it flat',
      10,
      [order('auto-eod-1:3045', 'S', 10, { system: true })],
      0,
      [],
      [],
    ],
    ['a deferred buy counts', 0, [order('p1', 'B', 10, { status: 'deferred' })], 10, [], []],
    // A bracket's legs are the bracket's: neither on their way nor cancelled.
    [
      'long with a bracket → flat: exit, legs left to the bracket',
      10,
      [
        order('b1/sl', 'S', 10, { orderType: 'SL-MKT' }),
        order('b1/tp', 'S', 10, { orderType: 'LMT', price: 80_800 }),
      ],
      0,
      [],
      [S(10)],
    ],
    [
      'long with a bracket → less long',
      10,
      [order('b1#2/tp', 'S', 10, { orderType: 'LMT', price: 80_800 })],
      5,
      [],
      [S(5)],
    ],
    // A stop re-placed by the framework (a cancel-and-replace) is protection, not an exit.
    [
      'long with a re-placed stop → flat',
      10,
      [order('p9', 'S', 10, { orderType: 'SL-MKT', system: true })],
      0,
      [],
      [S(10)],
    ],
  ])('%s', (_name, net, working, target, cancel, place) => {
    expect(planTarget(net, working, target)).toEqual({ cancel, place });
  });

  it('is a no-op when repeated once its orders are working', () => {
    const first = planTarget(0, [], 10);
    expect(first.place).toEqual([B(10)]);
    // What the first target placed is now a working order: the same target adds nothing.
    expect(planTarget(0, [order('p1', 'B', 10)], 10)).toEqual({ cancel: [], place: [] });
    // Filled meanwhile: still nothing.
    expect(planTarget(10, [], 10)).toEqual({ cancel: [], place: [] });
  });
});
