import { Observable, type Subscriber } from 'rxjs';
import type { QuoteMode } from '../domain/order-params.ts';
import type { MarketGreeks, MarketQuote } from './market-quote.ts';
import type { QuoteDemand } from './poll-plan.ts';
import { maxMode } from './project-quote.ts';
import { seedFrom } from './seed-channel.ts';
import { TokenChannel } from './token-channel.ts';

/** What one token's quote subscribers want and the channels they listen on. */
export interface QuoteTokenState {
  /** `${intervalMs}:${mode}` → number of subscriptions. */
  readonly demand: Map<string, { demand: QuoteDemand; count: number }>;
  readonly channels: Partial<Record<QuoteMode, TokenChannel<MarketQuote>>>;
}

/** What one token's greeks subscribers want and the channel they listen on. */
export interface GreeksTokenState {
  /** intervalMs → number of subscriptions. */
  readonly demand: Map<number, number>;
  readonly channel: TokenChannel<MarketGreeks>;
}

/** Which stream a demand change concerns. */
export type DemandKind = 'quotes' | 'greeks';

/** Side effects of demand changes that belong to other parts of the bus. */
export interface TokenDemandHooks {
  /** A token got its first quote subscriber. */
  readonly quoteTokenAdded: (token: number) => void;
  /** A token lost its last quote subscriber. */
  readonly quoteTokenDropped: (token: number) => void;
  /** A token lost its last greeks subscriber. */
  readonly greeksTokenDropped: (token: number) => void;
  /** The demand of `kind` changed, so its poll plan is out of date. */
  readonly changed: (kind: DemandKind) => void;
  /** True once the bus is closed: new streams complete at once, old ones leave no trace. */
  readonly closed: () => boolean;
  /** A stream polled every `intervalMs` starts (its poll loop is ref-counted). */
  readonly addRef: (kind: DemandKind, intervalMs: number) => void;
  /** A stream polled every `intervalMs` ends. */
  readonly removeRef: (kind: DemandKind, intervalMs: number) => void;
}

/**
 * Ref-counted demand of the bus, per token: who wants quotes (at which interval, in which
 * mode) and greeks, with the channels that fan the data out to the subscribers.
 *
 * @example
 * ```ts
 * const demand = new TokenDemand(hooks);
 * demand.addQuote(26000, 1_000, 'ltp', subscriber);
 * ```
 */
export class TokenDemand {
  /** Tokens with at least one quote subscriber. */
  readonly quoteTokens = new Map<number, QuoteTokenState>();
  /** Tokens with at least one greeks subscriber. */
  readonly greeksTokens = new Map<number, GreeksTokenState>();

  constructor(private readonly hooks: TokenDemandHooks) {}

  /**
   * A stream of quotes of `tokens` (unique, checked) in `mode`: each subscription adds its
   * demand and a ref on the `intervalMs` loop, and takes both back when it ends.
   */
  quoteStream<M extends QuoteMode>(
    tokens: readonly number[],
    intervalMs: number,
    mode: M,
  ): Observable<MarketQuote<M>> {
    const { hooks } = this;
    return new Observable<MarketQuote<M>>((subscriber) => {
      if (hooks.closed()) {
        subscriber.complete();
        return undefined;
      }
      const sub = subscriber as unknown as Subscriber<MarketQuote>;
      for (const token of tokens) this.addQuote(token, intervalMs, mode, sub);
      hooks.addRef('quotes', intervalMs);
      return () => {
        if (hooks.closed()) return;
        for (const token of tokens) this.removeQuote(token, intervalMs, mode, sub);
        hooks.removeRef('quotes', intervalMs);
      };
    });
  }

  /** A stream of greeks of `tokens` (unique, checked); see {@link quoteStream}. */
  greeksStream(tokens: readonly number[], intervalMs: number): Observable<MarketGreeks> {
    const { hooks } = this;
    return new Observable<MarketGreeks>((subscriber) => {
      if (hooks.closed()) {
        subscriber.complete();
        return undefined;
      }
      for (const token of tokens) this.addGreeks(token, intervalMs, subscriber);
      hooks.addRef('greeks', intervalMs);
      return () => {
        if (hooks.closed()) return;
        for (const token of tokens) this.removeGreeks(token, intervalMs, subscriber);
        hooks.removeRef('greeks', intervalMs);
      };
    });
  }

  /** One more subscriber of `token`'s quotes at `intervalMs` in `mode`. */
  addQuote(
    token: number,
    intervalMs: number,
    mode: QuoteMode,
    subscriber: Subscriber<MarketQuote>,
  ): void {
    let state = this.quoteTokens.get(token);
    if (state === undefined) {
      state = { demand: new Map(), channels: {} };
      this.quoteTokens.set(token, state);
      this.hooks.quoteTokenAdded(token);
    }
    const key = `${intervalMs}:${mode}`;
    const entry = state.demand.get(key);
    if (entry === undefined) state.demand.set(key, { demand: { intervalMs, mode }, count: 1 });
    else entry.count += 1;
    let channel = state.channels[mode];
    if (channel === undefined) {
      // A new mode starts from what a richer channel already knows.
      channel = new TokenChannel(seedFrom(state.channels, mode));
      state.channels[mode] = channel;
    }
    // Before the channel replays its cache: a subscriber reacting to it sees the new plan.
    this.hooks.changed('quotes');
    channel.add(subscriber);
  }

  /** One subscriber of `token`'s quotes at `intervalMs` in `mode` less. */
  removeQuote(
    token: number,
    intervalMs: number,
    mode: QuoteMode,
    subscriber: Subscriber<MarketQuote>,
  ): void {
    const state = this.quoteTokens.get(token);
    if (state === undefined) return;
    const key = `${intervalMs}:${mode}`;
    const entry = state.demand.get(key);
    if (entry !== undefined && --entry.count === 0) state.demand.delete(key);
    const channel = state.channels[mode];
    channel?.remove(subscriber);
    if (channel !== undefined && channel.size === 0) delete state.channels[mode];
    if (state.demand.size === 0) {
      this.quoteTokens.delete(token);
      this.hooks.quoteTokenDropped(token);
    }
    this.hooks.changed('quotes');
  }

  /** One more subscriber of `token`'s greeks at `intervalMs`. */
  addGreeks(token: number, intervalMs: number, subscriber: Subscriber<MarketGreeks>): void {
    let state = this.greeksTokens.get(token);
    if (state === undefined) {
      state = { demand: new Map(), channel: new TokenChannel() };
      this.greeksTokens.set(token, state);
    }
    state.demand.set(intervalMs, (state.demand.get(intervalMs) ?? 0) + 1);
    this.hooks.changed('greeks');
    state.channel.add(subscriber);
  }

  /** One subscriber of `token`'s greeks at `intervalMs` less. */
  removeGreeks(token: number, intervalMs: number, subscriber: Subscriber<MarketGreeks>): void {
    const state = this.greeksTokens.get(token);
    if (state === undefined) return;
    const n = (state.demand.get(intervalMs) ?? 1) - 1;
    if (n === 0) state.demand.delete(intervalMs);
    else state.demand.set(intervalMs, n);
    state.channel.remove(subscriber);
    if (state.demand.size === 0) {
      this.greeksTokens.delete(token);
      this.hooks.greeksTokenDropped(token);
    }
    this.hooks.changed('greeks');
  }

  /** True when anyone subscribes to `token` in `kind`. */
  wants(kind: DemandKind, token: number): boolean {
    return (kind === 'quotes' ? this.quoteTokens : this.greeksTokens).has(token);
  }

  /** The richest mode anyone wants any of `tokens` in, at any interval. */
  richestMode(tokens: readonly number[]): QuoteMode {
    let mode: QuoteMode = 'ltp';
    for (const token of tokens) {
      for (const { demand } of this.quoteTokens.get(token)?.demand.values() ?? []) {
        mode = maxMode(mode, demand.mode);
      }
    }
    return mode;
  }

  /** The cached quote of a subscribed token in `mode`, if one has arrived. */
  latest<M extends QuoteMode>(token: number, mode: M): MarketQuote<M> | undefined {
    return this.quoteTokens.get(token)?.channels[mode]?.last as MarketQuote<M> | undefined;
  }

  /** Completes every channel and forgets all demand (the bus is closing). */
  completeAll(): void {
    for (const state of this.quoteTokens.values()) {
      for (const ch of Object.values(state.channels)) ch.complete();
    }
    for (const state of this.greeksTokens.values()) state.channel.complete();
    this.quoteTokens.clear();
    this.greeksTokens.clear();
  }
}
