import type { Holidays } from '../api/schemas/utilities.ts';
import type { Credentials } from '../api/tiqs-client.ts';
import type { OptionChainSource } from './options/option-chain-resolver.ts';
import type { QuoteSource } from './quote-source.ts';

/**
 * Where market data, holidays and option chains come from. `TiqsClient` is one; a
 * backtest's replay is another.
 */
export type MarketSource = QuoteSource &
  OptionChainSource & {
    holidays(signal?: AbortSignal): Promise<Holidays>;
    /**
     * The instrument master's CSV text (`GET /all`). Optional: a source without one gives
     * strategies a master that misses every lookup.
     */
    instrumentMaster?(signal?: AbortSignal): Promise<string>;
    /** Why that master is not the service's own (a recording without one), once loaded. */
    readonly instrumentMasterNote?: string | undefined;
    setCredentials?(credentials: Credentials): void;
  };
