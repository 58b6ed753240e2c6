import { describe, expect, it } from 'vitest';
import type { EquityPoint } from '../metrics.ts';
import type { PeriodReturn } from './period-returns.ts';
import { riskStats } from './risk-stats.ts';
import type { TradeDetail } from './trade-details.ts';

const DAY = 86_400_000;
const T0 = Date.parse('2026-01-01T09:15:00+05:30');
const point = (at: number, equity: number): EquityPoint => ({
  at,
  equity,
  drawdown: 0,
  exposure: 0,
  open: true,
});
/** A day that made `pnl` paise on `startEquity` (returnPercent rounded, as period-returns does). */
const day = (percent: number, startEquity = 10_000): PeriodReturn => {
  const pnl = (startEquity * percent) / 100;
  return {
    period: '',
    startEquity,
    endEquity: startEquity + pnl,
    pnl,
    returnPercent: Math.round(percent * 100) / 100,
  };
};
const trade = (net: number, closedAt: number): TradeDetail => ({ net, closedAt }) as TradeDetail;

describe('riskStats', () => {
  const base = {
    capital: 1_000_000,
    finalEquity: 1_210_000,
    maxDrawdownPercent: 10,
    startMs: T0,
    endMs: T0 + 2 * 365.25 * DAY,
  };

  it('annualises daily returns, and measures drawdown time, streaks, SQN and Kelly', () => {
    const r = riskStats({
      ...base,
      equity: [
        point(T0, 1_000_000),
        point(T0 + DAY, 1_100_000),
        point(T0 + 2 * DAY, 1_000_000),
        point(T0 + 5 * DAY, 1_050_000),
        point(T0 + 6 * DAY, 1_100_000), // back at the peak: 5 days below it
        point(T0 + 7 * DAY, 1_090_000),
      ],
      daily: [day(1), day(-1), day(1), day(-1)],
      // In closing order W W L W W W L L (given out of order).
      trades: [
        trade(-50, 3),
        trade(100, 2),
        trade(100, 1),
        trade(100, 4),
        trade(100, 5),
        trade(100, 6),
        trade(-50, 7),
        trade(-50, 8),
      ],
    });
    expect(r.equityPeak).toBe(1_100_000);
    expect(r.maxDrawdownDurationMs).toBe(5 * DAY);
    // Mean 0: nothing compounds; sd of ±1% is 1.1547% a day → × √252.
    expect(r.returnAnnualPercent).toBe(0);
    expect(r.volatilityAnnualPercent).toBe(18.33);
    expect(r.sortino).toBe(0);
    expect(r.sharpeDaily).toBe(0);
    expect(r.calmar).toBe(0);
    // 1.21× over two years: 10% a year.
    expect(r.cagrPercent).toBe(10);
    expect(r).toMatchObject({ maxConsecutiveWins: 3, maxConsecutiveLosses: 2 });
    // 5 wins of 100, 3 losses of 50: win rate 0.625, payoff 2 → 0.625 − 0.375 / 2.
    expect(r.kelly).toBe(0.4375);
    // √8 × mean 43.75 ÷ sd 77.63…
    expect(r.sqn).toBe(1.594);
  });

  it('leaves figures that need two days, a month or a loss out', () => {
    const r = riskStats({
      ...base,
      endMs: T0 + DAY,
      equity: [point(T0, 1_000_000)],
      daily: [day(1)],
      trades: [trade(100, 1)],
    });
    expect(r).toMatchObject({
      returnAnnualPercent: null,
      volatilityAnnualPercent: null,
      cagrPercent: null,
      sortino: null,
      sharpeDaily: null,
      calmar: null,
      sqn: null,
      kelly: null,
      maxConsecutiveWins: 1,
      maxConsecutiveLosses: 0,
      maxDrawdownDurationMs: 0,
    });
  });

  it('uses exact daily returns, not the ones rounded to 0.01 % for display', () => {
    // ₹10 lakh, 60 sessions alternating +₹10 and +₹70: 0.001 % and 0.007 % a day, which
    // round to 0.00 % and 0.01 %.
    const capital = 100_000_000;
    const daily: PeriodReturn[] = [];
    let equity = capital;
    for (let i = 0; i < 60; i++) {
      const pnl = i % 2 === 0 ? 1_000 : 7_000;
      daily.push({
        period: '',
        startEquity: equity,
        endEquity: equity + pnl,
        pnl,
        returnPercent: Math.round((pnl / equity) * 10_000) / 100,
      });
      equity += pnl;
    }
    const r = riskStats({ ...base, capital, finalEquity: equity, equity: [], daily, trades: [] });
    const exact = daily.map((d) => d.pnl / d.startEquity);
    const mean = exact.reduce((s, x) => s + x, 0) / exact.length;
    expect(r.returnAnnualPercent).toBe(Math.round(((1 + mean) ** 252 - 1) * 10_000) / 100);
    expect(r.returnAnnualPercent).toBe(1.01);
    // ±0.003 % a day: 0.05 % a year, not the 0.08 % the rounded returns' noise gives.
    expect(r.volatilityAnnualPercent).toBe(0.05);
    const sd = Math.sqrt(exact.reduce((s, x) => s + (x - mean) ** 2, 0) / (exact.length - 1));
    expect(r.sharpeDaily).toBe(Math.round((mean / sd) * Math.sqrt(252) * 10_000) / 10_000);
  });
});
