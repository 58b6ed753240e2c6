import { describe, expect, it } from 'vitest';
import { TradingCalendar } from '../calendar/trading-calendar.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { demoStart } from '../runtime/embedded-simulator.ts';
import { SimExchange } from './sim-exchange.ts';
import { simHolidays, simHolidaysFor } from './sim-holidays.ts';

describe('the simulator calendar beyond 2026', () => {
  it('serves the current year, as the service does', () => {
    const clock = new VirtualClock(Date.parse('2027-03-05T10:00:00+05:30'));
    const data = new SimExchange({ clock }).holidays();
    expect(Object.keys(data.holidays).every((k) => k.endsWith('-2027'))).toBe(true);
    expect(data.holidays['26-01-2027']).toBe('Republic Day');
    expect(TradingCalendar.fromHolidays(data).covers(Date.parse('2027-06-01T10:00:00+05:30'))).toBe(
      true,
    );
  });

  it('keeps 2026 as it is and merges years for rules across New Year', () => {
    expect(simHolidays(2026).holidays['25-12-2026']).toBe('Christmas');
    const merged = simHolidaysFor([2026, 2027]);
    expect(merged.holidays['25-12-2026']).toBe('Christmas');
    expect(merged.holidays['26-01-2027']).toBe('Republic Day');
  });

  it('starts a demo just before the latest open in any year', () => {
    const saturday = Date.parse('2027-03-06T12:00:00+05:30');
    const calendar = TradingCalendar.fromHolidays(simHolidaysFor([2026, 2027]));
    expect(demoStart(saturday, calendar)).toBe(Date.parse('2027-03-05T09:13:00+05:30'));
  });
});
