import { dirname, resolve } from 'node:path';
import { TiqsClient } from '../api/tiqs-client.ts';
import { TradingCalendar } from '../calendar/trading-calendar.ts';
import { LiveClock } from '../clock/live-clock.ts';
import type { RunnerConfig } from '../config/config-schema.ts';
import { instrumentMasterSourceKey } from '../market-data/instruments/instrument-master-source-key.ts';
import {
  type InstrumentMasterStatus,
  InstrumentMasterStore,
} from '../market-data/instruments/instrument-master-store.ts';
import { readTokenFile } from '../runtime/read-token-file.ts';
import { instrumentMasterFile } from '../sim/market/instrument-master-file.ts';
import { InstrumentUniverse } from '../sim/market/instrument-universe.ts';
import { istYear, simHolidaysFor } from '../sim/sim-holidays.ts';

/** `validate` waits this long for the master, once: it checks, it does not insist. */
const VALIDATE_TIMEOUT_MS = 10_000;

/** Silent: `validate` reports what it found itself. */
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * The instrument master `validate` checks a config against, as `run` would have it:
 * today's cached copy in the state folder, else the service's (`GET /all`, one try),
 * else an earlier day's copy. With `broker.baseUrl: embedded` it is the simulator's own
 * master, built in process. A service that cannot be reached leaves origin `none`.
 *
 * @example
 * ```ts
 * const { store, status } = await validationMaster(config, 'config/paper.yaml');
 * ```
 */
export async function validationMaster(
  config: RunnerConfig,
  file: string,
): Promise<{ store: InstrumentMasterStore; status: InstrumentMasterStatus }> {
  const clock = new LiveClock();
  const { broker } = config;
  const embedded = broker.baseUrl === 'embedded';
  const fetchCsv = async (signal?: AbortSignal): Promise<string> => {
    if (embedded) {
      const now = clock.now();
      const year = istYear(now);
      const hours = TradingCalendar.fromHolidays(simHolidaysFor([year - 1, year, year + 1]));
      return instrumentMasterFile(InstrumentUniverse.standard(now, hours));
    }
    const token = broker.token ?? (await readTokenFile(broker.tokenFile));
    const client = new TiqsClient({
      baseUrl: broker.baseUrl,
      appId: broker.appId ?? '',
      token,
      timeoutMs: Math.min(broker.timeoutMs, VALIDATE_TIMEOUT_MS),
      retry: { limit: 0 },
    });
    return client.instrumentMaster(signal);
  };
  const { columns, tickUnit, strikeUnit } = config.instruments;
  const store = new InstrumentMasterStore({
    clock,
    fetchCsv,
    format: { columns, tickUnit, strikeUnit },
    // The simulator's master is made, not fetched: nothing to cache.
    cacheDir: embedded ? undefined : resolve(dirname(resolve(file)), config.state.dir),
    // The same file name `run` caches under: only this service's copies count.
    source: instrumentMasterSourceKey(broker.baseUrl),
    logger: quiet as never,
  });
  return { store, status: await store.load() };
}
