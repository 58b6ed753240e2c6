import type { Logger } from 'pino';
import { readInstrumentMasterRecords } from '../api/instrument-master-csv.ts';
import { requestDeadline } from '../api/request-deadline.ts';
import type { RunnerConfig } from '../config/config-schema.ts';
import { instrumentMasterSourceKey } from '../market-data/instruments/instrument-master-source-key.ts';
import { InstrumentMasterStore } from '../market-data/instruments/instrument-master-store.ts';
import type { ModeParts } from './modes/mode-parts.ts';

/** `instruments.required` is set and no instrument master could be had. */
export class InstrumentMasterUnavailableError extends Error {
  override readonly name = 'InstrumentMasterUnavailableError';
}

/**
 * The instrument master store of a bot: read from the mode's source (the service's
 * `GET /all`, a recording's saved copy, the simulator's), cached per IST day in the state
 * folder when the mode has one (live and paper; a backtest reads its recording's copy).
 *
 * @example
 * ```ts
 * const store = instrumentMasterFor(parts, config, logger);
 * await loadInstrumentMaster(store, parts, config, logger); // before strategies' setup
 * ```
 */
export function instrumentMasterFor(
  parts: Pick<ModeParts, 'clock' | 'networkClock' | 'quoteSource' | 'stateDir'> &
    Partial<Pick<ModeParts, 'recorder' | 'embeddedInstrumentMaster'>>,
  config: RunnerConfig,
  logger: Logger,
): InstrumentMasterStore {
  const source = parts.quoteSource;
  const { columns, tickUnit, strikeUnit, timeoutMs } = config.instruments;
  return new InstrumentMasterStore({
    clock: parts.clock,
    fetchCsv: async (signal) => {
      // The embedded simulator's rows, read in-process: the same rows `GET /all` would
      // give, through the same reader, without writing and parsing the CSV between.
      const embedded = parts.embeddedInstrumentMaster?.();
      if (embedded !== undefined) {
        const rows = embedded.records.map((record, i) => ({ record, line: i + 1 }));
        return {
          text: embedded.text,
          parsed: readInstrumentMasterRecords(rows, { columns, tickUnit, strikeUnit }),
        };
      }
      if (source.instrumentMaster === undefined) {
        throw new Error('the market-data source serves no instrument master');
      }
      // Bounded on its own: a service that never answers must not hold the start (and the
      // strategies) for the client's time-out and its retries.
      const deadline = requestDeadline(parts.networkClock, timeoutMs, signal);
      try {
        return await source.instrumentMaster(deadline.signal);
      } catch (err) {
        if (!deadline.expired) throw err;
        throw new Error(`no instrument master within instruments.timeoutMs (${timeoutMs} ms)`, {
          cause: err,
        });
      } finally {
        deadline.dispose();
      }
    },
    format: { columns, tickUnit, strikeUnit },
    cacheDir: parts.stateDir,
    // The simulator's master and the service's share a state folder only under different names.
    source: instrumentMasterSourceKey(config.broker.baseUrl),
    logger: logger.child({ component: 'instruments' }),
    // `record` keeps the master in use, also when it came from the day's cache.
    onUse:
      parts.recorder === undefined ? undefined : (csv) => parts.recorder?.saveInstrumentMaster(csv),
  });
}

/**
 * Loads the master before any strategy starts. Without one the bot starts anyway (logged
 * as an error; lookups miss) unless `instruments.required` is set.
 *
 * @throws {InstrumentMasterUnavailableError} when required and none could be had.
 */
export async function loadInstrumentMaster(
  store: InstrumentMasterStore,
  source: Pick<ModeParts['quoteSource'], 'instrumentMasterNote'>,
  config: RunnerConfig,
  logger: Logger,
): Promise<void> {
  const status = await store.load();
  const note = source.instrumentMasterNote;
  if (note !== undefined) logger.child({ component: 'instruments' }).warn({ note }, note);
  if (status.origin === 'none' && config.instruments.required) {
    throw new InstrumentMasterUnavailableError(
      `no instrument master (instruments.required is set): ${status.problem ?? 'unknown reason'}`,
    );
  }
}
