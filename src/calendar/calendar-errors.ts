/**
 * An instant or date given to the calendar could not be read.
 *
 * @example
 * ```ts
 * try { calendar.isOpen('yesterday') } catch (e) { if (e instanceof InvalidInstantError) ... }
 * ```
 */
export class InvalidInstantError extends Error {
  override readonly name = 'InvalidInstantError';
  /** The value that was given. */
  readonly input: unknown;

  constructor(input: unknown, detail: string, options?: { cause?: unknown }) {
    super(`invalid instant ${JSON.stringify(String(input))}: ${detail}`, options);
    this.input = input;
  }
}

/**
 * Holiday data or session configuration that the calendar cannot use, such as a time range
 * whose end is not after its start.
 */
export class CalendarDataError extends Error {
  override readonly name = 'CalendarDataError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Why there is no usable calendar: none at all, or none for the year asked about. */
export type NoCalendarReason = 'no-data' | 'not-covered';

/**
 * There is no calendar the bot may trust, so it must not trade. The message says why, in
 * words meant for the operator.
 *
 * @example
 * ```ts
 * const calendar = store.require(clock.now()); // throws NoCalendarError when unusable
 * ```
 */
export class NoCalendarError extends Error {
  override readonly name = 'NoCalendarError';
  /** `no-data`: nothing loaded; `not-covered`: data loaded but not for the year asked about. */
  readonly reason: NoCalendarReason;

  constructor(reason: NoCalendarReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}
