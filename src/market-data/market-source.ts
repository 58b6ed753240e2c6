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
    setCredentials?(credentials: Credentials): void;
  };
