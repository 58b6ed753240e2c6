import type { Logger } from 'pino';
import type { Subscription } from 'rxjs';
import { SessionError } from '../api/errors/session-error.ts';
import type { ExecutionEngine } from '../execution/execution-engine.ts';
import type { MarketFeed } from '../market-data/market-feed.ts';
import type { SessionExpiryNotice } from './session-expiry-notice.ts';

/**
 * Watches the feed's health: a refused session pauses execution too (the same token
 * serves orders) and is announced once through `notice`; other trouble is logged.
 */
export function watchFeedHealth(
  feed: MarketFeed,
  engine: ExecutionEngine,
  notice: SessionExpiryNotice,
  log: Logger,
): Subscription {
  return feed.health$.subscribe((h) => {
    if (h.status === 'session-expired') {
      // The bus-wide event (no token) counts. The same token serves orders: execution
      // pauses too, and the notice speaks once.
      if (h.token !== undefined) return;
      notice.refused('market-data', { operation: 'quotes' });
      engine.pause(
        new SessionError(`market data: ${h.reason ?? 'credentials refused'}`, {
          operation: 'quotes',
        }),
      );
      return;
    }
    if (h.status !== 'ok') log.warn({ health: h }, 'market data health');
  });
}
