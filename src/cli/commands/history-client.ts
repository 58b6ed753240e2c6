import type { Logger } from 'pino';
import { Pacer } from '../../api/pacing/pacer.ts';
import { DEFAULT_RATE_LIMITS } from '../../api/pacing/rate-limits.ts';
import { TiqsClient } from '../../api/tiqs-client.ts';
import type { Clock } from '../../clock/clock.ts';
import { LiveClock } from '../../clock/live-clock.ts';
import type { RunnerConfig } from '../../config/config-schema.ts';
import { startEmbeddedSimulator } from '../../runtime/embedded-simulator.ts';
import { externalMarketClock } from '../../runtime/market-clock.ts';
import { readTokenFile } from '../../runtime/read-token-file.ts';
import { DEFAULT_SIM_CREDENTIALS } from '../../sim/http/sim-auth.ts';

/** The candle endpoint's documented limit: 10 requests a second (api-facts.md). */
const CANDLE_RATE = [{ limit: 10, intervalMs: 1_000 }];

/** A client for `history`, the source's market clock, and how to let go of both. */
export interface HistoryClient {
  readonly client: TiqsClient;
  /** The source's market time (its "today" bounds what is complete). */
  readonly marketClock: Clock;
  readonly source: 'service' | 'simulator';
  close(): Promise<void>;
}

/**
 * The client `history` downloads through, as `run` connects: the config's URL and
 * credentials, or on `broker.baseUrl: embedded` a simulator started in process (seeded by
 * `broker.sim.seed`, so the same past every time). Its pacer holds every call, candles
 * included, to the candle endpoint's 10 requests a second; reads retry as the client does.
 *
 * @example
 * ```ts
 * const h = await historyClient(config, logger);
 * try { await h.client.candles(request); } finally { await h.close(); }
 * ```
 */
export async function historyClient(config: RunnerConfig, logger: Logger): Promise<HistoryClient> {
  const { broker } = config;
  const embedded = broker.baseUrl === 'embedded' ? await startEmbeddedSimulator(config) : undefined;
  const networkClock = embedded?.networkClock ?? new LiveClock();
  const endpoint =
    embedded === undefined
      ? {
          baseUrl: broker.baseUrl,
          appId: broker.appId ?? '',
          token: broker.token ?? (await readTokenFile(broker.tokenFile)),
        }
      : { baseUrl: embedded.sim.url, ...DEFAULT_SIM_CREDENTIALS };
  const rateLimits = { ...DEFAULT_RATE_LIMITS, other: CANDLE_RATE };
  const client = new TiqsClient({
    ...endpoint,
    clock: networkClock,
    rateLimits,
    pacer: new Pacer(networkClock, rateLimits, { marginMs: broker.pacingMarginMs }),
    timeoutMs: broker.timeoutMs,
    retryAfterMaxMs: broker.retryAfterMaxMs,
    throttleRetryDeadlineMs: broker.throttleRetryDeadlineMs,
    logger,
  });
  return {
    client,
    marketClock: embedded?.clock ?? externalMarketClock(broker),
    source: embedded === undefined ? 'service' : 'simulator',
    close: async () => {
      await embedded?.sim.close();
    },
  };
}
