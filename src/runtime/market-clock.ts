import type { Clock } from '../clock/clock.ts';
import { LiveClock } from '../clock/live-clock.ts';
import { ScaledClock } from '../clock/scaled-clock.ts';
import type { RunnerConfig } from '../config/config-schema.ts';
import { isLoopbackUrl } from '../config/is-loopback-url.ts';

/** A scaled market clock was asked for against a service that is not on this machine. */
export class MarketClockError extends Error {
  override readonly name = 'MarketClockError';
}

/**
 * The market clock of a bot talking to an external service (`broker.baseUrl` a URL).
 * Wall time, unless `broker.sim.start`, `speed` or `anchor` ask for a scaled clock:
 * `start + (wall − anchor) × speed`, the clock of `tiqs-runner sim --start --speed
 * --anchor`, so a bot and a simulator in two processes agree on market time. That is
 * honoured for loopback URLs only: a real broker is never traded on a make-believe clock.
 * The network clock (pacing, timeouts) stays wall time: the service counts real seconds.
 *
 * @throws {MarketClockError} for a scaled clock against a non-loopback URL.
 */
export function externalMarketClock(
  broker: RunnerConfig['broker'],
  realNow: () => number = Date.now,
): Clock {
  const { start, speed, anchor } = broker.sim;
  if (start === undefined && anchor === undefined && speed === 1) return new LiveClock();
  if (!isLoopbackUrl(broker.baseUrl)) {
    throw new MarketClockError(
      `broker.sim.start/speed/anchor scale the market clock and are allowed only with a loopback broker.baseUrl (a local simulator), not ${new URL(broker.baseUrl).host}`,
    );
  }
  const anchorMs = anchor === undefined ? undefined : Date.parse(anchor);
  const startMs = start === undefined ? (anchorMs ?? realNow()) : Date.parse(start);
  return new ScaledClock(startMs, speed, realNow, anchorMs);
}
