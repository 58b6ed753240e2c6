import { describe, expect, it } from 'vitest';
import { nearestKey, unknownKeyMessage } from './suggest-key.ts';

describe('nearestKey', () => {
  const risk = ['maxOrderQuantity', 'maxOrderValue', 'dailyMaxLoss', 'flattenOnKill'];

  it.each([
    ['dailyMaxLos', risk, 'dailyMaxLoss'],
    ['dailymaxloss', risk, 'dailyMaxLoss'],
    ['marketdata', ['mode', 'broker', 'marketData', 'strategies'], 'marketData'],
    ['parms', ['id', 'module', 'enabled', 'params'], 'params'],
    ['fastt', ['token', 'symbol', 'fast', 'slow'], 'fast'],
    ['flatenOnKil', risk, 'flattenOnKill'],
    ['sped', ['seed', 'speed', 'start'], 'speed'],
  ])('suggests the key nearest to %s', (typo, valid, expected) => {
    expect(nearestKey(typo, valid)).toBe(expected);
  });

  it('suggests nothing when no key is plausibly meant', () => {
    expect(nearestKey('colour', risk)).toBeUndefined();
    expect(nearestKey('x', [])).toBeUndefined();
  });
});

describe('unknownKeyMessage', () => {
  it('names the key and the suggestion', () => {
    expect(unknownKeyMessage('fastt', ['fast', 'slow'])).toBe(
      'unknown key "fastt"; did you mean "fast"?',
    );
  });

  it('lists the valid keys when none is near', () => {
    expect(unknownKeyMessage('zzz', ['fast', 'slow'])).toBe(
      'unknown key "zzz"; expected one of "fast", "slow"',
    );
  });
});
