import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { instrumentMasterSourceKey } from './instrument-master-source-key.ts';

describe('instrumentMasterSourceKey', () => {
  it('names the embedded simulator by name and a service by a digest of its URL', () => {
    expect(instrumentMasterSourceKey('embedded')).toBe('embedded');
    const digest = createHash('sha256').update('https://api.tiqs.trading').digest('hex');
    // A plain URL keeps the key it always had: stored files stay found after an upgrade.
    expect(instrumentMasterSourceKey('https://api.tiqs.trading')).toBe(digest.slice(0, 12));
  });

  it('gives every spelling of one service one key, and other services their own', () => {
    // Checked to fail with the URL hashed as written: four keys for one service.
    const one = instrumentMasterSourceKey('https://api.tiqs.trading');
    for (const spelling of [
      'https://api.tiqs.trading/',
      'https://API.tiqs.trading',
      'https://api.tiqs.trading:443//',
    ])
      expect(instrumentMasterSourceKey(spelling), spelling).toBe(one);
    expect(instrumentMasterSourceKey('http://api.tiqs.trading')).not.toBe(one);
    expect(instrumentMasterSourceKey('https://api.tiqs.trading/v2')).not.toBe(one);
  });
});
