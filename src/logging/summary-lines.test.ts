import { describe, expect, it } from 'vitest';
import { PrettyLines } from './pretty-lines.ts';

const INFO = 30;
const AT = '2026-11-20T09:31:02.000+05:30';
const SYMBOLS: Record<number, string> = { 3045: 'SBIN-EQ', 2885: 'RELIANCE-EQ' };

/** Pretty text of records, after a first line (so no date line in what is returned). */
function pretty(...records: Record<string, unknown>[]): string {
  const lines = new PrettyLines({ level: INFO, context: { symbolOf: (t) => SYMBOLS[t] } });
  lines.format(JSON.stringify({ level: INFO, marketTime: AT, msg: 'first' }));
  return records
    .map((r) => lines.format(JSON.stringify({ level: INFO, marketTime: AT, ...r })))
    .join('');
}

/** The records `bot-summary.ts` logs at one summary tick (JSON as the logger writes it). */
const market = {
  component: 'summary',
  msg: 'market summary',
  open: true,
  ltp: { 2885: '1398.95', 3045: '794.15' },
  health: 'ok',
  quoteTokens: 2,
  quoteRequests: 123,
  failedRequests: 0,
  rejectedTokens: [],
  strategies: { sma: 'running', straddle: 'stopped' },
  strategyData: {
    sma: { status: 'ok', rejectedTokens: [], staleTokens: [] },
    straddle: { status: 'stale', rejectedTokens: [], staleTokens: [3045] },
  },
};
const pnl = (strategy: string, fields: Record<string, unknown>) => ({
  component: 'summary',
  strategy,
  msg: 'strategy PnL (₹)',
  ...fields,
});

describe('the periodic summary in pretty lines', () => {
  it('prints a compact table: LTPs by symbol, a row per strategy with status, PnL and position', () => {
    const text = pretty(
      market,
      pnl('sma', {
        realised: '-487.35',
        unrealised: '123456.00',
        openPositions: 1,
        positions: { 'SBIN-EQ': 10 },
      }),
      pnl('straddle', { realised: '0.00', unrealised: '0.00', openPositions: 0, positions: {} }),
    );
    expect(text).toBe(
      [
        '09:31:02 IST  summary  market open  feed ok  2 tokens, 123 requests, 0 failed',
        '              LTP  RELIANCE-EQ ₹1,398.95  SBIN-EQ ₹794.15',
        '              strategy  status                  realised      unrealised  position',
        '              sma       running                 -₹487.35    ₹1,23,456.00  +10 SBIN-EQ',
        '              straddle  stopped, 1 stale           ₹0.00           ₹0.00  flat',
        '',
      ].join('\n'),
    );
    // No paise and no token numbers in the table.
    expect(text).not.toMatch(/\b(3045|2885|48735|79415)\b/);
  });

  it('gives a PnL record after other lines (the one at stop) its own heading', () => {
    const text = pretty(
      market,
      { component: 'kernel', msg: 'stopping' },
      pnl('sma', {
        realised: '0.00',
        unrealised: '-5.50',
        openPositions: 1,
        positions: { 'SBIN-EQ': -6 },
      }),
    );
    const lines = text.split('\n');
    expect(lines[3]).toBe('09:31:02 IST  kernel  stopping');
    expect(lines[4]).toMatch(/^ {14}strategy\s+status\s+realised\s+unrealised\s+position$/);
    // No status: the last market record's may no longer hold (strategies stop first).
    expect(lines[5]).toMatch(/^ {14}sma\s+₹0\.00\s+-₹5\.50\s+-6 SBIN-EQ$/);
  });

  it('keeps warnings and errors of those messages as plain lines', () => {
    expect(pretty({ ...market, level: 40 })).toMatch(
      /^09:31:02 IST {2}summary {2}WARN {2}market summary {2}open=true/,
    );
  });
});
