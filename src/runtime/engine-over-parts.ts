import type { Logger } from 'pino';
import { map } from 'rxjs';
import type { RunnerConfig } from '../config/config-schema.ts';
import type { MarketSessions } from '../domain/market-sessions.ts';
import { ExecutionEngine } from '../execution/execution-engine.ts';
import { type LastPriceBand, lastPriceBand } from '../market-data/last-price-band.ts';
import type { MarketFeed } from '../market-data/market-feed.ts';
import type { ModeParts } from './modes/mode-parts.ts';
import { riskLimitsOf } from './risk-limits-of.ts';
import type { SessionExpiryNotice } from './session-expiry-notice.ts';

/** The last price, with the day's limits when a full quote has them, from the feed's cache. */
function lastPriceOf(feed: MarketFeed): (token: number) => LastPriceBand | undefined {
  // A replay answers from a held full channel's newest record without decoding it.
  const fromFeed = feed.lastPrice?.bind(feed);
  if (fromFeed !== undefined) return fromFeed;
  return (token) => lastPriceBand((t, m) => feed.latest(t, m), token);
}

/**
 * The execution engine over a mode's parts, under the config's risk limits: orders to
 * `parts.broker`, journalled in `parts.journal`, priced from `parts.feed`, sessions from
 * the calendar, and a refused session reported to `notice`.
 */
export function engineOverParts(
  config: RunnerConfig,
  parts: ModeParts,
  notice: SessionExpiryNotice,
  logger: Logger,
): ExecutionEngine {
  const { calendarStore } = parts;
  // No calendar at all means no trading: the engine denies with the reason.
  const sessions = (): MarketSessions | undefined => calendarStore.calendar;
  return new ExecutionEngine({
    onSessionRefused: (err) =>
      notice.refused('execution', {
        operation: err.operation,
        ...(err.status === undefined ? {} : { status: err.status }),
      }),
    broker: parts.broker,
    clock: parts.clock,
    logger,
    sessions,
    trackIntervalMs: config.execution.trackIntervalMs,
    journal: parts.journal,
    ...(parts.closeIntradayAfterDay === undefined
      ? {}
      : { closeIntradayAfterDay: parts.closeIntradayAfterDay }),
    quote: lastPriceOf(parts.feed),
    // A bracket's trailing stop follows every last price, not only the risk marks.
    marks: (token) => parts.feed.quote$(token, 'ltp').pipe(map((q) => q.quote.ltp)),
    risk: riskLimitsOf(config),
    // Intraday entries stop when the framework starts squaring intraday positions off.
    squareOffMinutesBeforeClose: config.execution.squareOffMinutesBeforeClose,
    exitRetries: {
      attempts: config.execution.exitRetries,
      firstDelayMs: config.execution.exitRetryDelayMs,
    },
    ...(parts.observer === undefined ? {} : { observer: parts.observer }),
  });
}
