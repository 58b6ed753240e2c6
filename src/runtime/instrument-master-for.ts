import type { Logger } from 'pino';
import type { RunnerConfig } from '../config/config-schema.ts';
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
  parts: Pick<ModeParts, 'clock' | 'quoteSource' | 'stateDir'>,
  config: RunnerConfig,
  logger: Logger,
): InstrumentMasterStore {
  const source = parts.quoteSource;
  const { columns, tickUnit, strikeUnit } = config.instruments;
  return new InstrumentMasterStore({
    clock: parts.clock,
    fetchCsv: async (signal) => {
      if (source.instrumentMaster === undefined) {
        throw new Error('the market-data source serves no instrument master');
      }
      return source.instrumentMaster(signal);
    },
    format: { columns, tickUnit, strikeUnit },
    cacheDir: parts.stateDir,
    logger: logger.child({ component: 'instruments' }),
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
