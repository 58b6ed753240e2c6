import type { Instrument } from '../../domain/intents.ts';
import type { Exchange } from '../../domain/order-params.ts';

/**
 * Synchronous instrument lookups, as strategies see them (`ctx.instruments`). The master is
 * loaded before any strategy's `setup`, so nothing here waits; a miss is `undefined`.
 *
 * @example
 * ```ts
 * const sbin = ctx.instruments.lookup({ exchange: 'NSE', symbol: 'SBIN-EQ' });
 * ctx.instruments.byToken(3045)?.lotSize; // 1
 * ```
 */
export interface InstrumentLookup {
  /** The instrument with this symbol on this exchange (symbols compare case-insensitively). */
  lookup(query: { exchange: Exchange; symbol: string }): Instrument | undefined;
  /**
   * The instrument with this token. Tokens are unique per exchange only: pass `exchange`
   * when it matters; without it the first of NSE, NFO, BSE, BFO that has the token wins.
   */
  byToken(token: number, exchange?: Exchange): Instrument | undefined;
}

/** Exchanges in the order a bare token is looked up. */
const TOKEN_ORDER: readonly Exchange[] = ['NSE', 'NFO', 'BSE', 'BFO'];

const symbolKey = (exchange: string, symbol: string): string =>
  `${exchange}:${symbol.toUpperCase()}`;

/**
 * The service's instrument master, indexed by token and by symbol. Instruments handed out
 * are frozen copies: a strategy cannot change what another one sees.
 *
 * @example
 * ```ts
 * const master = new InstrumentMaster(parseInstrumentMaster(csv, format).instruments);
 * master.byToken(3045)?.symbol; // 'SBIN-EQ'
 * ```
 */
export class InstrumentMaster implements InstrumentLookup {
  private readonly tokens = new Map<string, Instrument>();
  private readonly symbols = new Map<string, Instrument>();
  /** Tokens that more than one exchange uses (a bare `byToken` picks by {@link TOKEN_ORDER}). */
  readonly sharedTokens: number;

  constructor(instruments: Iterable<Instrument>) {
    const seen = new Map<number, number>();
    for (const raw of instruments) {
      const inst = Object.freeze({ ...raw });
      const key = `${inst.exchange}:${inst.token}`;
      // First row wins on a duplicate, as a reader of the file would expect.
      if (this.tokens.has(key)) continue;
      this.tokens.set(key, inst);
      seen.set(inst.token, (seen.get(inst.token) ?? 0) + 1);
      const sym = symbolKey(inst.exchange, inst.symbol);
      if (!this.symbols.has(sym)) this.symbols.set(sym, inst);
    }
    this.sharedTokens = [...seen.values()].filter((n) => n > 1).length;
  }

  /** A master that misses every lookup (no master could be loaded). */
  static empty(): InstrumentMaster {
    return new InstrumentMaster([]);
  }

  /** Instruments held. */
  get size(): number {
    return this.tokens.size;
  }

  lookup(query: { exchange: Exchange; symbol: string }): Instrument | undefined {
    return this.symbols.get(symbolKey(query.exchange, query.symbol));
  }

  byToken(token: number, exchange?: Exchange): Instrument | undefined {
    if (exchange !== undefined) return this.tokens.get(`${exchange}:${token}`);
    for (const e of TOKEN_ORDER) {
      const hit = this.tokens.get(`${e}:${token}`);
      if (hit !== undefined) return hit;
    }
    return undefined;
  }
}
