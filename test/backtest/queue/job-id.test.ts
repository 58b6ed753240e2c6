import { describe, expect, it } from 'vitest';
import { sweepJobId } from '../../../src/backtest/queue/job-id.ts';

const base = {
  specText: 'strategies: []\n',
  params: { 'sma.fast': 5, 'sma.slow': 20 },
  data: [
    { path: 'meta.json', size: 10, sha256: 'a'.repeat(64) },
    { path: 'quotes.bin', size: 99, sha256: 'b'.repeat(64) },
  ],
  codeVersion: '0.1.0+0123456789abcdef',
};

describe('sweepJobId', () => {
  it('is run-<sha256 hex>, the same for the same inputs', () => {
    const id = sweepJobId(base);
    expect(id).toMatch(/^run-[0-9a-f]{64}$/);
    expect(sweepJobId({ ...base })).toBe(id);
  });

  it('ignores the order of params and of data files', () => {
    const reordered = {
      ...base,
      params: { 'sma.slow': 20, 'sma.fast': 5 },
      data: [...base.data].reverse(),
    };
    expect(sweepJobId(reordered)).toBe(sweepJobId(base));
  });

  it('is pinned: other machines and versions compute the same id', () => {
    // A change of the canonical form changes every id and orphans queued results: on purpose only.
    expect(sweepJobId(base)).toBe(
      'run-f4bad95367b62e74f9b0dbda0395a66f9ff4158bf0fee0413b0a3a26c1eeb883',
    );
  });

  it('changes with each input', () => {
    const id = sweepJobId(base);
    expect(sweepJobId({ ...base, specText: 'strategies: [] \n' })).not.toBe(id);
    expect(sweepJobId({ ...base, params: { ...base.params, 'sma.fast': 6 } })).not.toBe(id);
    expect(sweepJobId({ ...base, params: { ...base.params, 'sma.fast': '5' } })).not.toBe(id);
    expect(sweepJobId({ ...base, codeVersion: '0.1.1+0123456789abcdef' })).not.toBe(id);
    const data = [base.data[0], { path: 'quotes.bin', size: 99, sha256: 'c'.repeat(64) }];
    expect(sweepJobId({ ...base, data: data as typeof base.data })).not.toBe(id);
  });
});
