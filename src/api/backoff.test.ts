import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_RETRY, parseRetryAfter } from './backoff.ts';

const NOW = Date.parse('2026-11-20T04:45:00Z');

// How I checked: with the cap and the sign check removed (the old parser), "3600" gave
// 3 600 000, "1e12" gave 1e15 (a setTimeout overflow: the timer fires after 1 ms) and
// "-5" gave 0 (an immediate retry); these cases failed.
describe('parseRetryAfter', () => {
  it.each<[string | null, number | undefined]>([
    ['2', 2_000],
    ['0', 0],
    ['1.5', 1_500],
    [' 7 ', 7_000],
    ['3600', 30_000],
    ['1e12', 30_000],
    ['1e400', 30_000],
    ['-5', undefined],
    ['-0.5', undefined],
    ['NaN', undefined],
    ['soon', undefined],
    ['', undefined],
    [null, undefined],
    ['Fri, 20 Nov 2026 04:45:10 GMT', 10_000],
    ['Fri, 20 Nov 2026 05:45:00 GMT', 30_000],
    ['Fri, 20 Nov 2026 04:44:00 GMT', 0],
  ])('reads %j as %j ms (cap 30 s)', (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms);
  });

  it('takes the cap it is given, and never more than fits a timer', () => {
    expect(parseRetryAfter('3600', NOW, 5_000)).toBe(5_000);
    expect(parseRetryAfter('3600', NOW, 0)).toBe(0);
    const huge = parseRetryAfter('1e12', NOW) ?? 0;
    expect(huge).toBeLessThan(2 ** 31 - 1);
  });
});

describe('backoffDelay', () => {
  it('never goes below what the service asked for, nor above the cap it is given', () => {
    expect(backoffDelay(0, DEFAULT_RETRY, () => 0.5, 2_000)).toBe(2_000);
    expect(backoffDelay(10, DEFAULT_RETRY, () => 1)).toBe(DEFAULT_RETRY.maxDelayMs);
    expect(backoffDelay(0, DEFAULT_RETRY, () => 0)).toBe(125);
  });
});
