import type {
  OptionChainEntry,
  OptionChainRequest,
  OptionChainSymbols,
} from '../../api/schemas/utilities.ts';
import type { Clock } from '../../clock/clock.ts';
import type { Paise } from '../../domain/money.ts';
import { strikeStep } from './atm-strike.ts';
import { type ExpiryChoice, selectExpiry } from './expiry.ts';
import { type OptionContract, toOptionContract } from './option-contract.ts';

/** The two utility operations the resolver needs; `TiqsClient` satisfies it. */
export interface OptionChainSource {
  optionChainSymbols(signal?: AbortSignal): Promise<OptionChainSymbols>;
  optionChain(request: OptionChainRequest, signal?: AbortSignal): Promise<OptionChainEntry[]>;
}

/**
 * What chain to resolve.
 *
 * @example
 * ```ts
 * const req: ResolveChainRequest = { underlying: 'NIFTY', underlyingToken: 26000, expiry: 'weekly', count: 15 };
 * ```
 */
export interface ResolveChainRequest {
  /** Underlying symbol as listed by the option-chain-symbols operation, e.g. `NIFTY`. */
  readonly underlying: string;
  /** Token of the underlying index. */
  readonly underlyingToken: number | string;
  readonly expiry: ExpiryChoice;
  /** Strikes per side around the money. Default 20. */
  readonly count?: number;
  /** Exchange of the underlying. Default `INDEX`. */
  readonly exchange?: string;
}

/**
 * An option chain of one underlying and expiry, sorted by strike.
 *
 * @example
 * ```ts
 * const atm = atmStrike(ltp, chain.step ?? 5_000);
 * ```
 */
export interface OptionChain {
  readonly underlying: string;
  readonly expiry: string;
  readonly calls: readonly OptionContract[];
  readonly puts: readonly OptionContract[];
  /** Distinct strikes, ascending, in paise. */
  readonly strikes: readonly Paise[];
  /** Smallest gap between strikes; undefined for a single strike. */
  readonly step: Paise | undefined;
}

/** Why a chain could not be resolved; an expected outcome, not an exception. */
type ChainUnresolvedReason = 'unknown-underlying' | 'no-such-expiry' | 'empty-chain';

/**
 * Result of {@link resolveOptionChain}.
 *
 * @example
 * ```ts
 * const r = await resolveOptionChain(client, clock, req);
 * if (!r.ok) log.warn({ reason: r.reason }, r.message);
 * ```
 */
export type ResolveChainResult =
  | { readonly ok: true; readonly chain: OptionChain }
  | { readonly ok: false; readonly reason: ChainUnresolvedReason; readonly message: string };

/**
 * Resolves the option chain of an underlying for an expiry: looks the expiry up among the
 * listed ones (nearest weekly, nearest monthly or a given date, relative to the clock's
 * IST date), then fetches and converts the chain. Transport errors propagate.
 *
 * @example
 * ```ts
 * const r = await resolveOptionChain(client, clock, { underlying: 'NIFTY', underlyingToken: 26000, expiry: 'monthly' });
 * if (r.ok) console.log(r.chain.expiry, r.chain.calls.length);
 * ```
 */
export async function resolveOptionChain(
  source: OptionChainSource,
  clock: Clock,
  request: ResolveChainRequest,
  signal?: AbortSignal,
): Promise<ResolveChainResult> {
  const symbols = await source.optionChainSymbols(signal);
  const expiries = symbols[request.underlying];
  if (expiries === undefined) {
    return {
      ok: false,
      reason: 'unknown-underlying',
      message: `no option chain listed for ${request.underlying}`,
    };
  }
  const expiry = selectExpiry(expiries, request.expiry, clock.now());
  if (expiry === undefined) {
    const wanted = typeof request.expiry === 'string' ? request.expiry : request.expiry.date;
    return {
      ok: false,
      reason: 'no-such-expiry',
      message: `${request.underlying}: no ${wanted} expiry among ${expiries.join(', ') || 'none'}`,
    };
  }
  const entries = await source.optionChain(
    {
      token: String(request.underlyingToken),
      exchange: request.exchange ?? 'INDEX',
      count: String(request.count ?? 20),
      expiry,
    },
    signal,
  );
  const contracts = entries
    .map((e) => toOptionContract(e, expiry))
    .sort((a, b) => a.strike - b.strike);
  if (contracts.length === 0) {
    return {
      ok: false,
      reason: 'empty-chain',
      message: `${request.underlying} ${expiry}: empty chain`,
    };
  }
  const strikes = [...new Set(contracts.map((c) => c.strike))];
  return {
    ok: true,
    chain: {
      underlying: request.underlying,
      expiry,
      calls: contracts.filter((c) => c.optionType === 'CE'),
      puts: contracts.filter((c) => c.optionType === 'PE'),
      strikes,
      step: strikeStep(strikes),
    },
  };
}
