import type { FullQuote } from '../api/schemas/quote.ts';
import type { Paise } from '../domain/money.ts';
import type { DepthBook, PriceBand, VenueMarket } from '../sim/engine/venue-market.ts';
import type { SimInstrument } from '../sim/market/sim-instrument.ts';

/** What the paper broker knows of an instrument it has not seen described. */
export interface InstrumentTerms {
  exchange: 'NSE' | 'NFO' | 'BSE' | 'BFO';
  symbol: string;
  lotSize: number;
  tick: Paise;
}

/**
 * The simulator's market view over live quotes: the last full quote of each token,
 * whose depth the order engine consumes as it fills until the next quote replaces it.
 * This is how paper mode fills with the simulator's own fill logic.
 */
export class BusMarketView implements VenueMarket {
  /**
   * @param slippageTicks the book fills see is moved this many ticks worse a side: bids
   *   down, asks up (a simple, documented slippage model; 0 = the quote as it came).
   */
  constructor(private readonly slippageTicks = 0) {}

  private readonly quotes = new Map<number, FullQuote>();
  private readonly books = new Map<number, DepthBook>();
  private readonly terms = new Map<number, SimInstrument>();

  /** Describes an instrument (from an intent or the option chain). */
  describe(token: number, terms: InstrumentTerms): void {
    this.terms.set(token, {
      token,
      symbol: terms.symbol,
      name: terms.symbol,
      exchange: terms.exchange === 'NFO' || terms.exchange === 'BFO' ? 'NFO' : 'NSE',
      kind: terms.exchange === 'NFO' || terms.exchange === 'BFO' ? 'option' : 'equity',
      tick: terms.tick,
      lotSize: terms.lotSize,
      pricePrecision: 2,
    });
  }

  /**
   * Takes a fresh quote: its depth replaces whatever fills consumed. The book fills see
   * is built from it only when asked for ({@link depth}): most quotes are replaced before
   * any order works against them, and copying every quote's depth was a tenth of a
   * backtest's allocations (issue 13).
   */
  update(quote: FullQuote): void {
    this.quotes.set(quote.token, quote);
    this.books.delete(quote.token);
  }

  /** Whether a quote of `token` has arrived. */
  has(token: number): boolean {
    return this.quotes.has(token);
  }

  /** Forgets a token. */
  release(token: number): void {
    this.quotes.delete(token);
    this.books.delete(token);
  }

  instrument(token: number): SimInstrument | undefined {
    return this.terms.get(token);
  }

  ltp(token: number): Paise {
    return this.quotes.get(token)?.ltp ?? 0;
  }

  band(token: number): PriceBand {
    const q = this.quotes.get(token);
    return { lower: q?.lowerLimit ?? 0, upper: q?.upperLimit ?? 0 };
  }

  depth(token: number): DepthBook {
    const book = this.books.get(token);
    if (book !== undefined) return book;
    const quote = this.quotes.get(token);
    if (quote === undefined) return { bids: [], asks: [] };
    const shift = this.slippageTicks * (this.terms.get(token)?.tick ?? 5);
    const fresh = {
      bids: quote.bids.map((l) => ({ ...l, price: l.price > 0 ? l.price - shift : l.price })),
      asks: quote.asks.map((l) => ({ ...l, price: l.price > 0 ? l.price + shift : l.price })),
    };
    this.books.set(token, fresh);
    return fresh;
  }

  setDepth(token: number, book: DepthBook): void {
    this.books.set(token, book);
  }
}
