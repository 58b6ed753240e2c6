import { describe, expect, it } from 'vitest';
import { TradingCalendar } from '../calendar/trading-calendar.ts';
import { SIM_HOLIDAYS } from '../sim/sim-holidays.ts';
import { tradingWindowDenial } from './trading-window.ts';

const calendar = TradingCalendar.fromHolidays(SIM_HOLIDAYS);
const at = (time: string) => Date.parse(`2026-11-20T${time}+05:30`);
const order = (side: 'B' | 'S', quantity: number, product: 'I' | 'C' = 'I') => ({
  side,
  quantity,
  product,
});

describe('tradingWindowDenial (square-off 10 min before the 15:30 close)', () => {
  // How this was checked: with `now < cutoff` written `now <= cutoff`, the 15:20:00 rows
  // pass; without the isExit check every row after 15:20 is denied; without the product
  // check the delivery row is denied.
  it.each<[string, string, ReturnType<typeof order>, number, boolean]>([
    ['an entry before the square-off time', '15:19:59', order('B', 10), 0, true],
    ['an entry at the square-off time', '15:20:00', order('B', 10), 0, false],
    ['an entry after it', '15:25:00', order('S', 10), 0, false],
    ['adding to a long after it', '15:25:00', order('B', 5), 10, false],
    ['an exit of a long after it', '15:25:00', order('S', 10), 10, true],
    ['a partial exit of a short after it', '15:25:00', order('B', 4), -10, true],
    ['a reversal after it', '15:25:00', order('S', 15), 10, false],
    ['a delivery entry after it', '15:25:00', order('B', 10, 'C'), 0, true],
    ['an intraday AMO for the next day, after the close', '18:00:00', order('B', 10), 0, true],
  ])('%s: %s', (_name, time, intent, position, passes) => {
    const denial = tradingWindowDenial(intent, position, at(time), calendar, 10);
    if (passes) expect(denial).toBeUndefined();
    else
      expect(denial).toBe(
        'intraday entry after the square-off time (15:20 IST, 10 min before the close): only exits pass',
      );
  });

  it('is off when no square-off time is set', () => {
    expect(
      tradingWindowDenial(order('B', 10), 0, at('15:25:00'), calendar, undefined),
    ).toBeUndefined();
  });
});
