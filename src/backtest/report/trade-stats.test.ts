import { describe, expect, it } from 'vitest';
import type { TradeDetail } from './trade-details.ts';
import { tradeStats, tradeStatsBy } from './trade-stats.ts';

const t = (net: number, symbol: string, durationMs = 60_000, open = false): TradeDetail =>
  ({
    symbol,
    strategyId: 's',
    net,
    gross: net + 10,
    costs: 10,
    durationMs,
    closedAt: open ? undefined : 1,
  }) as TradeDetail;

describe('tradeStats', () => {
  it('gives expectancy, average win and loss, profit factor and extremes of closed trades', () => {
    const s = tradeStats('all', [
      t(3_000, 'A'),
      t(-1_000, 'A'),
      t(1_000, 'B', 180_000),
      t(-2_000, 'B'),
      t(50_000, 'B', 60_000, true),
    ]);
    expect(s).toMatchObject({
      trades: 4,
      open: 1,
      wins: 2,
      losses: 2,
      winRate: 50,
      net: 1_000,
      expectancy: 250,
      avgWin: 2_000,
      avgLoss: -1_500,
      profitFactor: 1.3333,
      bestTrade: 3_000,
      worstTrade: -2_000,
      avgDurationMs: 90_000,
      maxDurationMs: 180_000,
    });
  });

  it('says null for a profit factor without a loss, and zeros without trades', () => {
    expect(tradeStats('all', [t(500, 'A')]).profitFactor).toBeNull();
    expect(tradeStats('none', [])).toMatchObject({ trades: 0, expectancy: 0, winRate: 0 });
  });

  it('groups by a key in order of first appearance', () => {
    const by = tradeStatsBy([t(1, 'B'), t(2, 'A'), t(3, 'B')], (x) => x.symbol);
    expect(by.map((s) => [s.key, s.trades, s.net])).toEqual([
      ['B', 2, 4],
      ['A', 1, 2],
    ]);
  });
});
