import type { Subscriber } from 'rxjs';
import type { QuoteMode } from '../domain/order-params.ts';
import { type LastPriceBand, lastPriceBand } from '../market-data/last-price-band.ts';
import type { MarketGreeks, MarketQuote } from '../market-data/market-quote.ts';
import { modeCovers } from '../market-data/project-quote.ts';
import { publishGreeks } from '../market-data/publish-greeks.ts';
import { publishQuote } from '../market-data/publish-quote.ts';
import { seedFrom } from '../market-data/seed-channel.ts';
import { TokenChannel } from '../market-data/token-channel.ts';
import type { RecordReader } from '../recording/record-reader.ts';
import { HeldChannels } from './held-channels.ts';

type QuoteChannels = Partial<Record<QuoteMode, TokenChannel<MarketQuote>>>;

/**
 * A replay's channels: each followed token's quote channels by mode and greeks channel,
 * and the held full-quote channels nobody follows now (held-channels.ts). It publishes a
 * record to them as the bus ingests a polled answer; {@link ReplayMarket} owns the
 * recording and the clock.
 *
 * @example
 * ```ts
 * const channels = new ReplayChannels();
 * channels.addQuote(3045, 'ltp', subscriber, false);
 * channels.publish(reader, clock.now());
 * ```
 */
export class ReplayChannels {
  private readonly quoteTokens = new Map<number, QuoteChannels>();
  private readonly greeksTokens = new Map<number, TokenChannel<MarketGreeks>>();
  /** Full-quote channels followed `held`: dormant while nobody follows them. */
  private readonly held = new HeldChannels();

  /** Tokens with quote channels (dormant ones included), and with greeks channels. */
  get sizes(): { quoteTokens: number; greeksTokens: number } {
    return { quoteTokens: this.quoteTokens.size, greeksTokens: this.greeksTokens.size };
  }

  /** Tokens with quote channels, ascending. */
  quoteTokenList(): number[] {
    return [...this.quoteTokens.keys()].sort((a, b) => a - b);
  }

  /**
   * As `latest(token, 'full')` then `latest(token, 'ltp')` give them, but a held full
   * channel nobody follows now answers from its newest record without decoding it: the
   * engine asks at every risk mark.
   */
  lastPrice(token: number): LastPriceBand | undefined {
    return this.held.lastPrice(token) ?? lastPriceBand((t, m) => this.latest(t, m), token);
  }

  /** The cached quote of `token` in `mode` (a dormant full channel's brought up to date). */
  latest(token: number, mode: QuoteMode): MarketQuote | undefined {
    const channel =
      this.quoteTokens.get(token)?.[mode] ?? (mode === 'full' ? this.held.wake(token) : undefined);
    return channel?.last;
  }

  /**
   * Publishes the reader's current record as received at `receivedAt`, as the bus ingests
   * a polled answer: each covered mode's channel, changes only. A record of a token (or
   * of greeks) nobody follows is not decoded: no channel would take it.
   */
  publish(r: RecordReader, receivedAt: number): void {
    const token = r.token;
    if (r.kind === 'greeks') {
      const channel = this.greeksTokens.get(token);
      if (channel !== undefined) publishGreeks(channel, { token, greeks: r.greeks(), receivedAt });
      return;
    }
    const channels = this.quoteTokens.get(token);
    if (channels === undefined) return;
    // A held full channel nobody follows now keeps where this record is, undecoded.
    if (r.kind === 'full' && this.held.isDormant(token)) this.held.retain(token, r, receivedAt);
    if (channels.ltp === undefined && channels.ohlcv === undefined && channels.full === undefined)
      return;
    // Decoded no richer than the richest mode followed: the same stream, less decoded.
    const top = richestMode(channels);
    if (modeCovers(top, r.kind)) {
      publishQuote(channels, r.kind, r.quote(), receivedAt);
      return;
    }
    publishQuote(channels, top, r.quoteAs(top), receivedAt, r.sourceTime(receivedAt));
    // A richer channel opened while it went out (a paper order's first look at the book)
    // takes this record too, as one pass over every mode the record covers gave it.
    if (!modeCovers(top, richestMode(channels)))
      publishQuote(channels, r.kind, r.quote(), receivedAt);
  }

  addQuote(
    token: number,
    mode: QuoteMode,
    subscriber: Subscriber<MarketQuote>,
    held: boolean,
  ): void {
    let channels = this.quoteTokens.get(token);
    if (channels === undefined) {
      channels = {};
      this.quoteTokens.set(token, channels);
    }
    let channel = channels[mode] ?? (mode === 'full' ? this.held.revive(token) : undefined);
    if (channel === undefined) {
      // A dormant full channel is as richer channels are for a new one: its seed.
      const dormant = this.held.wake(token);
      channel = new TokenChannel(
        seedFrom(dormant === undefined ? channels : { ...channels, full: dormant }, mode),
      );
    }
    channels[mode] = channel;
    const replay = mode === 'full' ? this.held.join(token, channel, subscriber, held) : true;
    channel.add(subscriber, replay);
  }

  /** Whether a held channel retains a record (the cursor's block may need copying from). */
  get retaining(): boolean {
    return this.held.retaining;
  }

  /** Copies the retained records of held channels still in `block`, before the cursor leaves it. */
  keep(block: RecordReader): void {
    this.held.keep(block);
  }

  removeQuote(token: number, mode: QuoteMode, subscriber: Subscriber<MarketQuote>): void {
    const channels = this.quoteTokens.get(token);
    const channel = channels?.[mode];
    if (channels === undefined || channel === undefined) return;
    channel.remove(subscriber);
    const dormant = mode === 'full' && this.held.leave(token, channel, subscriber);
    if (channel.size > 0) return;
    delete channels[mode];
    // Held: its follower comes back (a paper venue's next order), and the token stays
    // listed as followed, as if it had never left.
    if (dormant) return;
    if (Object.keys(channels).length === 0 && !this.held.isDormant(token))
      this.quoteTokens.delete(token);
  }

  addGreeks(token: number, subscriber: Subscriber<MarketGreeks>): void {
    let ch = this.greeksTokens.get(token);
    if (ch === undefined) {
      ch = new TokenChannel();
      this.greeksTokens.set(token, ch);
    }
    ch.add(subscriber);
  }

  removeGreeks(token: number, subscriber: Subscriber<MarketGreeks>): void {
    const ch = this.greeksTokens.get(token);
    ch?.remove(subscriber);
    if (ch !== undefined && ch.size === 0) this.greeksTokens.delete(token);
  }

  /** Completes every subscriber and forgets every channel. */
  close(): void {
    for (const channels of this.quoteTokens.values()) {
      for (const ch of Object.values(channels)) ch.complete();
    }
    for (const ch of this.greeksTokens.values()) ch.complete();
    this.quoteTokens.clear();
    this.held.clear();
    this.greeksTokens.clear();
  }
}

/** The richest mode a token's channels follow (`ltp` when none). */
function richestMode(channels: Partial<Record<QuoteMode, unknown>>): QuoteMode {
  return channels.full !== undefined ? 'full' : channels.ohlcv !== undefined ? 'ohlcv' : 'ltp';
}
