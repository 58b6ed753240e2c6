import { describe, expect, it } from 'vitest';
import type { EquityPoint } from '../metrics.ts';
import { dailyReturns, monthlyReturns } from './period-returns.ts';

const at = (iso: string): number => Date.parse(iso);
const p = (iso: string, equity: number, open = true): EquityPoint => ({
  at: at(iso),
  equity,
  drawdown: 0,
  exposure: 0,
  open,
});

describe('dailyReturns', () => {
  it('gives one return per IST trading date, chained from the capital; nights and weekends are not days', () => {
    const daily = dailyReturns(
      [
        p('2026-11-27T09:15:00+05:30', 1_000_000),
        p('2026-11-27T15:30:00+05:30', 1_010_000),
        // 23:59 IST is still the 27th; 00:30 IST on the 28th is another date, closed.
        p('2026-11-27T23:59:00+05:30', 1_010_000, false),
        p('2026-11-28T00:30:00+05:30', 1_010_000, false),
        p('2026-11-30T09:15:00+05:30', 1_005_000),
        p('2026-11-30T15:30:00+05:30', 999_900),
        p('2026-12-01T15:30:00+05:30', 1_019_898),
      ],
      1_000_000,
    );
    expect(daily).toEqual([
      {
        period: '2026-11-27',
        startEquity: 1_000_000,
        endEquity: 1_010_000,
        pnl: 10_000,
        returnPercent: 1,
      },
      {
        period: '2026-11-30',
        startEquity: 1_010_000,
        endEquity: 999_900,
        pnl: -10_100,
        returnPercent: -1,
      },
      {
        period: '2026-12-01',
        startEquity: 999_900,
        endEquity: 1_019_898,
        pnl: 19_998,
        returnPercent: 2,
      },
    ]);
    expect(monthlyReturns(daily)).toEqual([
      {
        period: '2026-11',
        startEquity: 1_000_000,
        endEquity: 999_900,
        pnl: -100,
        returnPercent: -0.01,
      },
      {
        period: '2026-12',
        startEquity: 999_900,
        endEquity: 1_019_898,
        pnl: 19_998,
        returnPercent: 2,
      },
    ]);
  });

  it('is empty without an in-session sample', () => {
    expect(dailyReturns([p('2026-11-28T10:00:00+05:30', 5, false)], 5)).toEqual([]);
  });
});
