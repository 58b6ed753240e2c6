import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { findUnknownKeys, scalarKindsAt } from './schema-walk.ts';

const schema = z
  .object({
    fast: z.number().default(3),
    legs: z.array(z.object({ strike: z.number(), side: z.enum(['CE', 'PE']) })).default([]),
    exit: z
      .union([
        z.object({ kind: z.literal('time'), at: z.string() }),
        z.object({ kind: z.literal('delta'), delta: z.number() }),
      ])
      .optional(),
    tags: z.record(z.string(), z.object({ weight: z.number() })).default({}),
    extra: z.looseObject({ known: z.boolean() }).optional(),
    flag: z.boolean().prefault(false),
  })
  .refine(() => true);

describe('findUnknownKeys', () => {
  it('finds unknown keys at every depth, plain z.object counting as strict', () => {
    const found = findUnknownKeys(schema, {
      fastt: 3,
      legs: [
        { strike: 1, side: 'CE' },
        { strik: 2, side: 'PE' },
      ],
      tags: { a: { weigth: 1 } },
    });
    expect(found).toEqual([
      { path: [], key: 'fastt', valid: ['fast', 'legs', 'exit', 'tags', 'extra', 'flag'] },
      { path: ['legs', 1], key: 'strik', valid: ['strike', 'side'] },
      { path: ['tags', 'a'], key: 'weigth', valid: ['weight'] },
    ]);
  });

  it('picks the union member that fits best', () => {
    expect(findUnknownKeys(schema, { exit: { kind: 'delta', delta: 0.3 } })).toEqual([]);
    expect(findUnknownKeys(schema, { exit: { kind: 'delta', dleta: 0.3 } })).toEqual([
      { path: ['exit'], key: 'dleta', valid: ['kind', 'delta'] },
    ]);
  });

  it('lets a loose object keep keys it does not name', () => {
    expect(findUnknownKeys(schema, { extra: { known: true, anything: 1 } })).toEqual([]);
  });
});

describe('scalarKindsAt', () => {
  it('sees through defaults, prefaults and refinements', () => {
    expect(scalarKindsAt(schema, ['fast'])).toEqual({ number: true, boolean: false });
    expect(scalarKindsAt(schema, ['flag'])).toEqual({ number: false, boolean: true });
    expect(scalarKindsAt(schema, ['legs', 0, 'strike'])).toEqual({ number: true, boolean: false });
    expect(scalarKindsAt(schema, ['legs', 0, 'side'])).toEqual({ number: false, boolean: false });
    expect(scalarKindsAt(schema, ['nope'])).toEqual({ number: false, boolean: false });
  });
});
