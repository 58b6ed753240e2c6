import { describe, expect, it } from 'vitest';
import {
  formatInr,
  formatRupees,
  isOnTick,
  MoneyFormatError,
  notional,
  parseRupees,
  roundToTick,
} from './money.ts';

describe('money', () => {
  it.each([
    ['801.90', 80190],
    ['801.9', 80190],
    ['801', 80100],
    ['0.05', 5],
    ['0', 0],
    ['-12.34', -1234],
    ['0.105', 11],
    ['0.1049', 10],
    ['19999999.99', 1999999999],
  ])('parses %s as %i paise', (text, paise) => {
    expect(parseRupees(text)).toBe(paise);
  });

  it.each(['', 'abc', '1.2.3', '1e5', ' . ', 'NaN'])('rejects %j', (text) => {
    expect(() => parseRupees(text)).toThrow(MoneyFormatError);
  });

  it.each([
    [80190, 2, '801.90'],
    [5, 2, '0.05'],
    [5, 4, '0.0500'],
    [-1234, 2, '-12.34'],
    [80150, 0, '802'],
    [80150, 1, '801.5'],
    [0, 2, '0.00'],
  ])('formats %i paise at precision %i as %s', (paise, precision, text) => {
    expect(formatRupees(paise, precision)).toBe(text);
  });

  it('round-trips every paise value in a range without drift', () => {
    for (let p = -10_000; p <= 10_000; p += 7) expect(parseRupees(formatRupees(p))).toBe(p);
  });

  it('rejects fractional paise', () => {
    expect(() => formatRupees(10.5)).toThrow(MoneyFormatError);
  });

  it('rounds to tick', () => {
    expect(roundToTick(80193, 5)).toBe(80195);
    expect(roundToTick(80192, 5)).toBe(80190);
    expect(roundToTick(80193, 5, 'down')).toBe(80190);
    expect(roundToTick(80191, 5, 'up')).toBe(80195);
    expect(roundToTick(80190, 5, 'up')).toBe(80190);
    expect(isOnTick(80195, 5)).toBe(true);
    expect(isOnTick(80193, 5)).toBe(false);
    expect(() => roundToTick(1, 0)).toThrow(MoneyFormatError);
  });

  it('computes notional as integer paise', () => {
    expect(notional(80190, 3)).toBe(240570);
  });

  it.each([
    [0, '₹0.00'],
    [5, '₹0.05'],
    [99_999, '₹999.99'],
    [100_000, '₹1,000.00'],
    [10_000_000, '₹1,00,000.00'],
    [100_000_000, '₹10,00,000.00'],
    [12_345_678_901, '₹12,34,56,789.01'],
    [-123_456, '-₹1,234.56'],
  ])('formatInr(%i) groups the Indian way: %s', (paise, text) => {
    expect(formatInr(paise)).toBe(text);
  });
});
