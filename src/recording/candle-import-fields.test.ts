import { describe, expect, it } from 'vitest';
import { parseCount, parsePrice, parseTimestamp } from './candle-import-fields.ts';

describe('parsePrice', () => {
  it('converts rupees to paise exactly, with no float rounding', () => {
    expect(parsePrice('801.90', 'rupees')).toBe(80_190);
    expect(parsePrice('801.9', 'rupees')).toBe(80_190);
    expect(parsePrice('801', 'rupees')).toBe(80_100);
    expect(parsePrice(' 0.05 ', 'rupees')).toBe(5);
    expect(parsePrice('801.900', 'rupees')).toBe(80_190);
    // 1.15 * 100 is 114.99999999999999 in floating point.
    expect(parsePrice('1.15', 'rupees')).toBe(115);
    expect(parsePrice('25862.35', 'rupees')).toBe(2_586_235);
  });

  it('rejects what is not a whole number of paise, or no price', () => {
    expect(parsePrice('801.905', 'rupees')).toBe('not a whole number of paise: 801.905');
    expect(parsePrice('1e3', 'rupees')).toMatch(/not a rupee amount/);
    expect(parsePrice('-5', 'rupees')).toMatch(/not a rupee amount/);
    expect(parsePrice('0', 'rupees')).toMatch(/not a positive price/);
    expect(parsePrice('', 'rupees')).toMatch(/not a rupee amount/);
  });

  it('takes whole paise in paise units only', () => {
    expect(parsePrice('80190', 'paise')).toBe(80_190);
    expect(parsePrice('801.90', 'paise')).toMatch(/not a whole number of paise/);
  });
});

describe('parseTimestamp', () => {
  const at = Date.parse('2025-01-02T09:15:00+05:30');
  it('reads offsets as given and naive times as IST', () => {
    expect(parseTimestamp('2025-01-02T09:15:00+05:30')).toBe(at);
    expect(parseTimestamp('2025-01-02T09:15:00+0530')).toBe(at);
    expect(parseTimestamp('2025-01-02T03:45:00Z')).toBe(at);
    expect(parseTimestamp('2025-01-02T09:15:00')).toBe(at);
    expect(parseTimestamp('2025-01-02 09:15:00')).toBe(at);
    expect(parseTimestamp('2025-01-02T09:15')).toBe(at);
    expect(parseTimestamp('2025-01-02')).toBe(Date.parse('2025-01-02T00:00:00+05:30'));
  });

  it('rejects other shapes and impossible dates', () => {
    expect(parseTimestamp('02/01/2025 09:15')).toMatch(/not an ISO 8601 timestamp/);
    expect(parseTimestamp('1735789500')).toMatch(/not an ISO 8601 timestamp/);
    expect(parseTimestamp('2025-02-30T09:15:00')).toMatch(/not a valid date-time/);
  });
});

describe('parseCount', () => {
  it('takes whole non-negative numbers', () => {
    expect(parseCount('0')).toBe(0);
    expect(parseCount('12345678901')).toBe(12_345_678_901);
    expect(parseCount('1.5')).toMatch(/not a whole/);
    expect(parseCount('-1')).toMatch(/not a whole/);
  });
});
