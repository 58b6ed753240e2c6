import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

/** The sample day's recording: 2026-11-20, 09:13 to 15:31 IST. */
const data = resolve('backtests/data/sample-day');
const meta = JSON.parse(readFileSync(join(data, 'meta.json'), 'utf8')) as {
  start: string;
  end: string;
};

/** backtests/sma-crossover.yaml with a logging section of its own. */
function spec(logging: string): { file: string; out: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tr-pretty-'));
  const file = join(dir, 'sma.yaml');
  const text = readFileSync('backtests/sma-crossover.yaml', 'utf8')
    .replace('data: data/sample-day', `data: ${data}`)
    .replace('../strategies/sma-crossover.ts', resolve('strategies/sma-crossover.ts'));
  writeFileSync(file, `${text}logging:\n${logging}`);
  return { file, out: join(dir, 'out') };
}

/** `HH:MM:SS` of an instant in IST. */
const istTime = (iso: string): string =>
  new Date(Date.parse(iso) + 330 * 60_000).toISOString().slice(11, 19);

describe('backtest logs for people (issue 15 §5)', () => {
  it('logging.format pretty: one line a fill, in simulated IST time, rupees and symbols', async () => {
    const { file, out } = spec('  level: info\n  format: pretty\n');
    const run = await runCli('backtest', '--config', file, '--out', out);
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    const fill =
      /^(\d\d:\d\d:\d\d) IST {2}sma {2}(BUY|SELL) \d+ SBIN-EQ @ ₹\d{3}\.\d\d (partially )?filled(, .*)? \(order \d+\)$/;
    const fills = lines.filter((l) => fill.test(l));
    // 54 orders, some filled in parts; one line per fill.
    expect(fills.length).toBeGreaterThanOrEqual(54);
    expect(lines).toContain('── 2026-11-20 Fri IST ──');
    // Market time of the replay, not the wall clock: inside the recording's session.
    const [first, last] = [istTime(meta.start), istTime(meta.end)];
    for (const l of fills) {
      const t = fill.exec(l)?.[1] ?? '';
      expect(t >= first && t <= last, `${t} within ${first}..${last}`).toBe(true);
    }
    expect(fills[0]).toMatch(
      /^09:36:01 IST {2}sma {2}BUY 100 SBIN-EQ @ ₹798\.60 filled \(order 9000000001\)$/,
    );
    // The strategy's own lines show prices in rupees; routine steps stay out at info.
    expect(
      lines.some((l) => /^09:36:00 IST {2}sma {2}golden cross {2}close=₹798\.85 /.test(l)),
    ).toBe(true);
    expect(run.stdout).not.toMatch(/OrderAccepted|"level"|\bplot\b/);
    expect(run.stdout).toMatch(
      /WARN {2}BUY 100 SBIN-EQ MKT denied: intraday entry after the square-off time/,
    );
    expect(run.stdout).toMatch(/net PnL\s+-?₹/);
  });

  it('logging.format json: every line JSON, stamped with the simulated marketTime in IST', async () => {
    const { file, out } = spec('  level: info\n  format: json\n');
    const run = await runCli('backtest', '--config', file, '--out', out);
    expect(run.code).toBe(0);
    const records = run.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const fills = records.filter((r) => r.msg === 'OrderFilled');
    expect(fills.length).toBeGreaterThan(20);
    for (const r of records) {
      const at = Date.parse(String(r.marketTime));
      expect(String(r.marketTime)).toMatch(/\+05:30$/);
      expect(at >= Date.parse(meta.start) && at <= Date.parse(meta.end) + 600_000).toBe(true);
    }
    expect(fills[0]).toMatchObject({
      event: { fillPrice: 79860, orderId: '9000000001' },
      order: { side: 'B', quantity: 100, symbol: 'SBIN-EQ', token: 3045 },
    });
  });

  it('without logging.level the backtest keeps backtest.logLevel (warn): no info lines', async () => {
    const { file, out } = spec('  format: pretty\n');
    const run = await runCli('backtest', '--config', file, '--out', out);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(/ filled \(order/);
    expect(run.stdout).toMatch(/WARN {2}BUY 100 SBIN-EQ MKT denied/);
  });
});
