import { describe, expect, it } from 'vitest';
import { orderTag, tagSeq } from './order-tag.ts';

describe('tagSeq', () => {
  it.each([
    ['a tag the engine made', orderTag('sma', 1_763_600_000_000, 35), 35],
    ['a strategy id with dashes', orderTag('sma-fast-2', 1_763_600_000_000, 7), 7],
    // Checked to fail: the earlier split on /[-/]/ read "SL" as base 36, i.e. 1029.
    ['a stop leg: its parent’s number', `${orderTag('sma', 1_763_600_000_000, 4)}/SL`, 4],
    ['a tag of another client', 'manual order', undefined],
  ])('%s', (_name, tag, seq) => {
    expect(tagSeq(tag)).toBe(seq);
  });
});
