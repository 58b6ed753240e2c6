import { describe, expect, it } from 'vitest';
import { SHUTDOWN_INTENT_PREFIX } from '../execution/run-shutdown.ts';
import {
  checkIntent,
  intentSchema,
  plainPlaceIntent,
  RESERVED_INTENT_IDS,
} from './check-intent.ts';
import { IntentFactory, lastAutoIdNumber } from './intent-factory.ts';

const sbin = { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ' } as const;

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
    // Tokens are numbers; a text token (the old form) is refused with a hint.
    [
      {
        kind: 'place',
        id: 'p1',
        instrument: { ...sbin, token: '3045' },
        side: 'B',
        quantity: 1,
        orderType: 'MKT',
        product: 'I',
      },
      /instrument\.token: a token is a number/,
    ],
    [{ kind: 'squareOff', id: 'x', token: '3045' }, /token: a token is a number/],
  ])('refuses %j, saying what is wrong', (value, problem) => {
    // Checked to fail: a check that only looks at `typeof value === 'object'` passes
    // the objects without a valid kind or fields.
    const r = checkIntent(value);
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.problem).toMatch(problem);
  });

  it.each([
    ['shutdown-1', /starts with "shutdown-", which is reserved for a stop's square-off/],
    ['auto-eod-9', /starts with "auto-eod-", which is reserved for the intraday square-off/],
    ['exit/stop', /ends with "\/stop", which is reserved for a cover order's stop leg/],
    ['p1#duplicate', /ends with "#duplicate"/],
    ['eod#retry2', /ends with "#retry<n>", which is reserved for the next try of a refused/],
    // Checked to fail: before the reservation both passed; `b1/exit` shared bracket b1's
    // exit id, and `b1/sl~m` denied was read as a failed modification of b1's stop.
    ['b1/exit', /ends with "\/exit", which is reserved for a bracket's market exit/],
    ['b1/sl~m', /ends with "~m", which is reserved for a modification of a bracket's leg/],
    // Checked to fail: run against the previous check-intent.ts, both of these passed.
    [
      'kill-1732345200000',
      /starts with "kill-", which is reserved for the kill switch's square-off/,
    ],
    ['x9:3045', /contains ":", which is reserved for a square-off's orders/],
  ])('refuses the reserved intent id %s, saying why', (id, problem) => {
    // Checked to fail: before the reservation, `shutdown-1` passed, and a `flatten` stop
    // took the strategy's order for its own square-off and never cancelled it.
    const place = {
      kind: 'place',
      id,
      instrument: sbin,
      side: 'B',
      quantity: 1,
      orderType: 'MKT',
      product: 'I',
    };
    for (const intent of [place, { kind: 'cancel', id, target: 'p1' }]) {
      const r = checkIntent(intent);
      expect(r.ok).toBe(false);
      expect(r.ok ? '' : r.problem).toMatch(problem);
    }
  });

  it("reserves the stop's own prefix, and lets a cancel target a cover order's stop leg", () => {
    expect(Object.keys(RESERVED_INTENT_IDS.prefixes)).toContain(SHUTDOWN_INTENT_PREFIX);
    expect(checkIntent({ kind: 'cancel', id: 'c1', target: 'p1/stop' }).ok).toBe(true);
    expect(checkIntent({ kind: 'cancel', id: 'my-shutdown-1', target: 'p1' }).ok).toBe(true);
  });

  it('accepts what the intent factory builds', () => {
    const f = new IntentFactory();
    for (const intent of [
      f.place({ instrument: sbin, side: 'B', quantity: 1, orderType: 'MKT', product: 'I' }),
      f.modify('p1', { price: 80_000 }),
      f.cancel('p1'),
      f.squareOff(3045, 'eod'),
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

describe('checkIntent: the place fast path', () => {
  const base = {
    kind: 'place',
    id: 'sma-1',
    instrument: { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ', lotSize: 1, tickSize: 5 },
    side: 'B',
    quantity: 100,
    orderType: 'LMT',
    price: 80_000,
    triggerPrice: 79_900,
    product: 'I',
    validity: 'DAY',
    variety: 'regular',
    bookLossPrice: 79_000,
    disclosedQty: 0,
    afterHours: 'wait',
    reason: 'cross',
    strategyTag: 'extra keys pass',
  } as const;
  /** Values every field is tried with: right and wrong types, edges, reserved ids. */
  const values: unknown[] = [
    undefined,
    null,
    '',
    'x',
    'B',
    'S',
    'MKT',
    'SL-MKT',
    'NSE',
    'BFO',
    'C',
    'M',
    'IOC',
    'cover',
    'amo',
    '3045',
    'sma-2',
    'auto-eod-1',
    'kill-1',
    'a:1',
    'x/sl',
    'x#retry2',
    'x#duplicate',
    0,
    1,
    -1,
    1.5,
    2 ** 53,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    true,
    {},
    [],
    [1],
  ];
  const cases: unknown[] = [base, { ...base, instrument: { ...base.instrument } }];
  const { price: _p, triggerPrice: _t, validity: _v, variety: _va, ...required } = base;
  cases.push(required);
  for (const key of Object.keys(base)) {
    for (const value of values) cases.push({ ...base, [key]: value });
    const { [key as keyof typeof base]: _gone, ...without } = base;
    cases.push(without);
  }
  for (const key of Object.keys(base.instrument)) {
    for (const value of values)
      cases.push({ ...base, instrument: { ...base.instrument, [key]: value } });
  }
  cases.push(null, [], 'place', { ...base, instrument: [base.instrument] });

  it('says yes only to what the schema accepts, and to the common well-formed place intents', () => {
    // Checked to fail: with `isInt` as `typeof v === 'number'`, the NaN, 1.5 and 2^53
    // quantities were let through, which the schema refuses.
    let fast = 0;
    for (const c of cases) {
      if (!plainPlaceIntent(c)) continue;
      fast += 1;
      expect(intentSchema.safeParse(c).success, JSON.stringify(c)).toBe(true);
    }
    expect(plainPlaceIntent(base)).toBe(true);
    expect(plainPlaceIntent(required)).toBe(true);
    // Most single-field changes of a good intent are still good or are refused by both.
    expect(fast).toBeGreaterThan(50);
  });

  it('gives the same answer as the schema, with the same messages', () => {
    for (const c of cases) {
      const checked = checkIntent(c);
      expect(checked.ok, JSON.stringify(c)).toBe(intentSchema.safeParse(c).success);
    }
    expect(checkIntent({ ...base, id: 'kill-1' })).toEqual({
      ok: false,
      problem: expect.stringMatching(/starts with "kill-", which is reserved/),
    });
  });
});
