import { describe, expect, it } from 'vitest';
import type { PlaceIntent } from '../../domain/intents.ts';
import { checkIntent } from '../../strategy/check-intent.ts';
import { IntentFactory, lastAutoIdNumber } from '../../strategy/intent-factory.ts';
import { exposureOf } from '../exposure.ts';
import type { OrderTracker } from '../order-tracker.ts';
import { PositionBook } from '../position-book.ts';
import { trackedOrder } from '../tracked-order.ts';
import { legIntentId, legOf, ocoGroupOf } from './leg-ids.ts';

const sbin = { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ' } as const;

const sell = (id: string, quantity: number): PlaceIntent => ({
  kind: 'place',
  id,
  instrument: sbin,
  side: 'S',
  quantity,
  orderType: 'LMT',
  price: 80_000,
  product: 'I',
});

describe('bracket legs', () => {
  it('are named after the bracket, and name their group', () => {
    expect(legIntentId('p4', 'sl', 1)).toBe('p4/sl');
    expect(legIntentId('p4', 'tp', 2)).toBe('p4#2/tp');
    expect(ocoGroupOf('p4#2/tp')).toBe('p4');
    expect(ocoGroupOf('p4/sl')).toBe('p4');
    expect(ocoGroupOf('p4')).toBeUndefined();
    expect(ocoGroupOf('p4/stop')).toBeUndefined();
    expect(legOf('p4#2/sl~m')).toEqual({ bracket: 'p4', part: 'sl', modify: true });
    expect(legOf('p4/tp')).toEqual({ bracket: 'p4', part: 'tp', modify: false });
    expect(legOf('p4')).toEqual({ bracket: 'p4', part: 'entry', modify: false });
    expect(legOf('p4/exit')).toEqual({ bracket: 'p4', part: 'exit', modify: false });
    // A restarted strategy numbers its ids past its brackets' legs.
    expect(lastAutoIdNumber(['p4#2/tp', 'p9/sl'])).toBe(9);
  });

  it('count once in exposure: long 10 with a stop and a target working is flat, not short 10', () => {
    const positions = new PositionBook();
    positions.applyFill('s1', 3045, 'SBIN-EQ', 'B', 10, 80_000);
    const orders = [sell('p1/sl', 10), sell('p1/tp', 10), sell('p2', 3)].map((intent) =>
      trackedOrder({
        strategyId: 's1',
        intentId: intent.id,
        tag: `t-${intent.id}`,
        intent,
        request: {} as never,
        placedAt: 0,
      }),
    );
    const tracker = { active: () => orders } as unknown as OrderTracker;
    expect(exposureOf(positions, tracker, 's1', 3045)).toEqual({ position: 10, pending: -13 });
    // Placing or modifying one leg: its group is left out (the leg stands for it).
    expect(exposureOf(positions, tracker, 's1', 3045, undefined, 'p1')).toEqual({
      position: 10,
      pending: -3,
    });
  });
});

describe('the bracket intent at the kernel boundary', () => {
  it('is built by the factory with an automatic id and passes the check', () => {
    const f = new IntentFactory(3);
    const b = f.bracket({
      instrument: sbin,
      side: 'B',
      quantity: 10,
      product: 'I',
      entry: { orderType: 'LMT', price: 80_000 },
      stopLoss: { points: 400 },
      target: { price: 81_000 },
      trailing: { points: 300 },
    });
    expect(b).toMatchObject({ kind: 'bracket', id: 'p4' });
    expect(checkIntent(b)).toEqual({ ok: true, intent: b });
  });

  it.each([
    [{ stopLoss: { points: 0 } }, 'stopLoss'],
    [{ stopLoss: { points: -400 } }, 'stopLoss'],
    [{ trailing: { points: 0 } }, 'trailing.points'],
    [{ id: 'mine/sl' }, '"/sl"'],
    // Its legs would read as bracket "orb"'s (generation 2), their fills lost to it.
    [{ id: 'orb#2' }, 'may not contain "#" or "/"'],
    [{ id: 'a/b' }, 'may not contain "#" or "/"'],
    [{ entry: { orderType: 'SL-MKT' } }, 'entry.orderType'],
  ])('refuses %j', (change, problem) => {
    const intent = {
      kind: 'bracket',
      id: 'b1',
      instrument: sbin,
      side: 'B',
      quantity: 10,
      product: 'I',
      entry: { orderType: 'MKT' },
      stopLoss: { points: 400 },
      ...change,
    };
    const checked = checkIntent(intent);
    expect(checked.ok).toBe(false);
    expect(checked.ok ? '' : checked.problem).toContain(problem);
  });
});
