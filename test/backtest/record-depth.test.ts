import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBacktestSpec } from '../../src/backtest/backtest-spec.ts';
import { runBacktest } from '../../src/backtest/run-backtest.ts';
import { RecordReader } from '../../src/recording/record-reader.ts';
import { runCli } from '../cli/run-cli.ts';

const fixture = (name: string): string => resolve('test/fixtures/strategies', name);

describe('record: full depth for every subscribed token from the first poll', () => {
  it('records full quotes of a token only ever polled in ltp, so a backtest buying it at once fills', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tr-rec-depth-'));
    const data = join(dir, 'data');
    // The recording run only watches SBIN's last price: it never trades, nothing asks for depth.
    writeFileSync(
      join(dir, 'record.yaml'),
      `mode: paper
broker:
  baseUrl: embedded
  sim: { seed: 42, start: "2026-11-20T09:13:00+05:30" }
marketData: { intervalMs: 5000 }
strategies:
  - id: watch
    module: ${fixture('watch-tokens.ts')}
    params: { tokens: [3045] }
state: { dir: ${join(dir, 'state')} }
logging: { level: silent }
`,
    );
    const rec = await runCli(
      'record',
      '--config',
      join(dir, 'record.yaml'),
      '--out',
      data,
      '--until',
      '2026-11-20T09:40:00+05:30',
    );
    expect(rec.code).toBe(0);

    const meta = JSON.parse(readFileSync(join(data, 'meta.json'), 'utf8'));
    expect(meta.tokens).toEqual([3045]);
    // The first record of the token (its first poll) is a full quote with depth.
    const reader = new RecordReader(readFileSync(join(data, 'quotes.bin')));
    const kinds = new Set<string>();
    let first: { kind: string; bids: number } | undefined;
    while (reader.next()) {
      kinds.add(reader.kind);
      if (first === undefined && reader.token === 3045) {
        const q = reader.quote();
        first = { kind: reader.kind, bids: 'bids' in q ? q.bids.length : 0 };
      }
    }
    expect(first?.kind).toBe('full');
    expect(first?.bids).toBeGreaterThan(0);
    expect([...kinds]).toEqual(['full']);

    // A backtest that buys SBIN on its first quote: before, `no market data yet`.
    writeFileSync(
      join(dir, 'buy.yaml'),
      `backtest:
  data: ${data}
  capital: 1000000
strategies:
  - id: buy
    module: ${fixture('buy-once.ts')}
    params: { quantity: 5 }
`,
    );
    const result = await runBacktest(await loadBacktestSpec(join(dir, 'buy.yaml')));
    expect(result.rejections).toEqual([]);
    expect(result.summary.rejected).toBe(0);
    expect(result.fills.map((f) => [f.symbol, f.side, f.quantity])).toEqual([['SBIN-EQ', 'B', 5]]);
  }, 60_000);
});
