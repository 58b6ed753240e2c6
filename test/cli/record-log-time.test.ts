import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

describe('record: log lines in the recording bot’s market time', () => {
  it('stamps a warning with the simulator’s virtual time (IST) and names the token by symbol', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tr-rec-log-'));
    writeFileSync(
      join(dir, 'record.yaml'),
      `mode: paper
broker:
  baseUrl: embedded
  sim: { seed: 42, start: "2026-11-20T09:13:00+05:30" }
marketData: { intervalMs: 5000 }
strategies:
  - id: sma
    module: ${resolve('strategies/sma-crossover.ts')}
    params: { fast: 3, slow: 8, interval: 1m, quantity: 100 }
state: { dir: ${join(dir, 'state')} }
logging: { format: pretty }
`,
    );
    const rec = await runCli(
      'record',
      '--config',
      join(dir, 'record.yaml'),
      '--out',
      join(dir, 'data'),
      '--until',
      '2026-11-20T09:30:00+05:30',
    );
    expect(rec.code).toBe(0);
    expect(rec.stdout).toMatch(
      /^09:13:00 IST {2}candles {2}WARN {2}1m candles of 3045 start cold: .* token=SBIN-EQ /m,
    );
    // The span in IST like every other time printed (review 15b nice 10), not UTC.
    expect(rec.stdout).toMatch(
      /^recorded \d+ records, 2026-11-20 09:1\d:\d\d → 2026-11-20 09:[23]\d:\d\d IST, into /m,
    );
  });
});
