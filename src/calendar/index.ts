/**
 * The trading calendar module: sessions and phases (`TradingCalendar`), its refresh and
 * persistence (`CalendarStore`), and clock-driven schedules for strategies and execution.
 * See docs/calendar.md.
 */

export {
  CalendarDataError,
  InvalidInstantError,
  NoCalendarError,
  type NoCalendarReason,
} from './calendar-errors.ts';
export {
  type CalendarStatus,
  CalendarStore,
  type CalendarStoreLogger,
  type CalendarStoreOptions,
} from './calendar-store.ts';
export { type Instant, toEpochMs } from './instant.ts';
export { IST_OFFSET_MINUTES, IST_ZONE, toIstIso } from './ist.ts';
export { mergeHolidays } from './merge-holidays.ts';
export {
  atSessionOpen$,
  atTimeIst$,
  beforeClose$,
  type CalendarSource,
  type CalendarTick,
  everyWhileOpen$,
} from './schedules.ts';
export {
  DEFAULT_EXCHANGE_SESSIONS,
  type ExchangeSessionConfig,
  type ExchangeSessionOverrides,
  type TimeOfDayRange,
} from './session-config.ts';
export {
  type CalendarDate,
  type CalendarOptions,
  type MarketPhase,
  type OutsideCoverage,
  type Session,
  type SessionKind,
  type SpecialOnTradingDay,
  TradingCalendar,
  type TradingDay,
} from './trading-calendar.ts';
