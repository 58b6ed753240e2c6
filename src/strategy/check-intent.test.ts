import { describe, expect, it } from 'vitest';
import { checkIntent } from './check-intent.ts';
import { IntentFactory, lastAutoIdNumber } from './intent-factory.ts';

const sbin = { exchange: 'NSE', token: '3045', symbol: 'SBIN-EQ' } as const;

describe('checkIntent', () => {
  it.each([
    [undefined, /^undefined is not an intent/],
    ['buy', /^"buy" is not an intent/],
    [{}, /kind/],
    [{ kind: 'place', id: 'p1' }, /instrument/],
    [
      {
        kind: 'place',
        id: 'p1',
        instrument: sbin,
        side: 'X',
        quantity: 1,
        orderType: 'MKT',
        product: 'I',
      },
      /side/,
    ],
    [{ kind: 'cancel', id: 'c1' }, /target/],
  ])('refuses %j, saying what is wrong', (value, problem) => {
    // Checked to fail: a check that only looks at `typeof value === 'object'` passes
    // the objects without a valid kind or fields.
    const r = checkIntent(value);
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.problem).toMatch(problem);
  });

  it('accepts what the intent factory builds', () => {
    const f = new IntentFactory();
    for (const intent of [
      f.place({ instrument: sbin, side: 'B', quantity: 1, orderType: 'MKT', product: 'I' }),
      f.modify('p1', { price: 80_000 }),
      f.cancel('p1'),
      f.squareOff('3045', 'eod'),
    ]) {
      expect(checkIntent(intent)).toEqual({ ok: true, intent });
    }
  });
});

describe('automatic intent ids', () => {
  it('continue after the highest automatic number a journal holds', () => {
    // Checked to fail: a factory that ignores `start` numbers from p1 again.
    const start = lastAutoIdNumber(['p1', 'p7/stop', 'x9:3045', 'p3#duplicate', 'entry-12']);
    expect(start).toBe(9);
    const f = new IntentFactory(start);
    expect(
      f.place({ instrument: sbin, side: 'B', quantity: 1, orderType: 'MKT', product: 'I' }).id,
    ).toBe('p10');
    expect(f.cancel('p10').id).toBe('c11');
    expect(lastAutoIdNumber([])).toBe(0);
  });
});
