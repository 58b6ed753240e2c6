import type { QuoteMode } from '../domain/order-params.ts';
import type { MarketSource } from '../market-data/market-source.ts';
import { instrumentMasterFile } from '../sim/market/instrument-master-file.ts';
import type { SimExchange } from '../sim/sim-exchange.ts';

/**
 * The in-process simulator as a {@link MarketSource}: no HTTP, no rate limits, answers at
 * the exchange clock's now. With a virtual clock it records a whole simulated day in
 * seconds (the `record` command on `baseUrl: embedded`) and runs the parity test.
 *
 * @example
 * ```ts
 * const source = simExchangeSource(new SimExchange({ clock, seed: 42 }));
 * const kernel = await Kernel.create({ config, configFile, logger, clock, source });
 * ```
 */
export function simExchangeSource(exchange: SimExchange): MarketSource {
  return {
    quotes: async <M extends QuoteMode>(mode: M, tokens: readonly number[]) =>
      exchange.quotes(mode, tokens),
    greeks: async (tokens) => exchange.greeks(tokens),
    holidays: async () => exchange.holidays(),
    instrumentMaster: async () => instrumentMasterFile(exchange.market.universe),
    optionChainSymbols: async () => exchange.optionChainSymbols(),
    optionChain: async (request) => exchange.optionChain(request),
  };
}
