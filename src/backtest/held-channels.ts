import type { Subscriber } from 'rxjs';
import type { LastPriceBand } from '../market-data/last-price-band.ts';
import { type MarketQuote, sourceTimeOf } from '../market-data/market-quote.ts';
import { sameQuote } from '../market-data/same-quote.ts';
import type { TokenChannel } from '../market-data/token-channel.ts';
import type { RecordReader } from '../recording/record-reader.ts';

/** A full record kept undecoded for a dormant channel, with the price and band read from it. */
interface Retained {
  block: RecordReader;
  offset: number;
  receivedAt: number;
  ltp: number;
  lowerLimit: number;
  upperLimit: number;
}

/** What is known of one token's held full-quote channel. */
interface Held {
  channel: TokenChannel<MarketQuote>;
  /** Nobody follows it now: records are retained, not published. */
  dormant: boolean;
  /** The newest full record since it went dormant. */
  retained: Retained | undefined;
  /** Changes found in the records retained (the channel's publishes count the others). */
  dormantChanges: number;
  /** Whether a change was found since it last went dormant (then no more are looked for). */
  changedWhileDormant: boolean;
  /** The version when a held follower last left: one back finds out if anything changed. */
  leftAt: number | undefined;
}

/** Every change the channel's followers would have been sent: publishes, and those found dormant. */
const version = (held: Held): number => held.channel.published + held.dormantChanges;

/**
 * A replay's full-quote channels followed `held` (`SubscribeOptions.held`: a backtest's
 * paper venue, which lets go of its quotes while no order works). When such a channel
 * empties it goes dormant instead of closing: the replay keeps only where the newest full
 * record of its token lies (copied before the cursor's block memory is reused), and
 * whether any record since differed from the one before it (what "changes only" would
 * have sent). It is decoded when the channel is read or followed again, as publishing it
 * would have been; a held follower back is sent that newest quote only if something
 * changed since it left, as following on would have sent it, and nothing otherwise (so a
 * paper venue keeps the book its last fill ate into), not even by a publish under way
 * when it comes back (`TokenChannel.add` without replay). What came back unchanged is
 * told per token: one held follower a token (a backtest has one paper venue).
 *
 * @example
 * ```ts
 * const held = new HeldChannels();
 * held.join(3045, channel, venue); // a held follower: true (send the last value)
 * held.leave(3045, channel, venue); // emptied: dormant
 * held.retain(3045, reader, now); // each full record of 3045 meanwhile
 * held.revive(3045); // the channel, its value brought up to date
 * ```
 */
export class HeldChannels {
  private readonly tokens = new Map<number, Held>();
  private readonly followers = new WeakSet<Subscriber<MarketQuote>>();

  /**
   * A follower joins `token`'s full channel, `held` or not. True when it should be sent
   * the channel's last value at once: always, except for a held follower coming back to
   * a channel that has not changed since a held follower left.
   */
  join(
    token: number,
    channel: TokenChannel<MarketQuote>,
    subscriber: Subscriber<MarketQuote>,
    held: boolean,
  ): boolean {
    let state = this.tokens.get(token);
    if (held) {
      this.followers.add(subscriber);
      if (state === undefined) {
        state = {
          channel,
          dormant: false,
          retained: undefined,
          dormantChanges: 0,
          changedWhileDormant: false,
          leftAt: undefined,
        };
        this.tokens.set(token, state);
      }
    }
    if (!held || state === undefined || state.leftAt === undefined) return true;
    return version(state) !== state.leftAt;
  }

  /**
   * A follower left; true when the channel, now empty, is held and goes dormant (to be
   * kept rather than closed).
   */
  leave(
    token: number,
    channel: TokenChannel<MarketQuote>,
    subscriber: Subscriber<MarketQuote>,
  ): boolean {
    const state = this.tokens.get(token);
    if (state === undefined || state.channel !== channel) return false;
    if (this.followers.has(subscriber)) state.leftAt = version(state);
    if (channel.size > 0) return false;
    state.dormant = true;
    state.changedWhileDormant = false;
    return true;
  }

  /** Whether `token`'s held channel is dormant (its full records are to be retained). */
  isDormant(token: number): boolean {
    return this.tokens.get(token)?.dormant === true;
  }

  /**
   * Keeps where `r`'s current record (full, of a dormant token) is, and notes whether it
   * differs from the record before it: the bytes compared (their times aside), decoded
   * and compared as publishing does only when they differ, until a change is found.
   */
  retain(token: number, r: RecordReader, receivedAt: number): void {
    const state = this.tokens.get(token);
    if (state === undefined || !state.dormant) return;
    const kept = state.retained;
    if (!state.changedWhileDormant && this.changed(state, r)) {
      state.changedWhileDormant = true;
      state.dormantChanges += 1;
    }
    const ltp = r.ltp();
    const lowerLimit = r.limit('lower');
    const upperLimit = r.limit('upper');
    if (kept === undefined) {
      state.retained = { block: r, offset: r.offset, receivedAt, ltp, lowerLimit, upperLimit };
      return;
    }
    kept.block = r;
    kept.offset = r.offset;
    kept.receivedAt = receivedAt;
    kept.ltp = ltp;
    kept.lowerLimit = lowerLimit;
    kept.upperLimit = upperLimit;
  }

  /** Whether `r`'s record differs from the one before it (the retained one, or the channel's value). */
  private changed(state: Held, r: RecordReader): boolean {
    const kept = state.retained;
    if (kept !== undefined) {
      if (r.sameBytesAs(kept.block, kept.offset)) return false;
      return !sameQuote(kept.block.recordAt(kept.offset).quote(), r.quote());
    }
    const last = state.channel.last;
    return last === undefined || !sameQuote(last.quote, r.quote());
  }

  /**
   * The dormant channel of `token`, its value brought up to date with the newest record
   * retained, decoded as publishing it would have been; it stays dormant.
   */
  wake(token: number): TokenChannel<MarketQuote> | undefined {
    const state = this.tokens.get(token);
    if (state === undefined || !state.dormant) return undefined;
    const kept = state.retained;
    if (kept !== undefined) {
      state.retained = undefined;
      const quote = kept.block.recordAt(kept.offset).quote();
      state.channel.last = {
        token: quote.token,
        mode: 'full',
        quote,
        sourceTime: sourceTimeOf(quote, 'full', kept.receivedAt),
        receivedAt: kept.receivedAt,
      };
    }
    return state.channel;
  }

  /** The dormant channel of `token`, up to date and no longer dormant (it is followed again). */
  revive(token: number): TokenChannel<MarketQuote> | undefined {
    const channel = this.wake(token);
    const state = this.tokens.get(token);
    if (channel !== undefined && state !== undefined) state.dormant = false;
    return channel;
  }

  /** LTP and band of a dormant token's newest record, read from its bytes (none retained: undefined). */
  lastPrice(token: number): LastPriceBand | undefined {
    const kept = this.tokens.get(token)?.retained;
    if (kept === undefined) return undefined;
    return { ltp: kept.ltp, lowerLimit: kept.lowerLimit, upperLimit: kept.upperLimit };
  }

  /** Whether any record is retained (there may be some to copy before a block is left). */
  get retaining(): boolean {
    for (const state of this.tokens.values()) if (state.retained !== undefined) return true;
    return false;
  }

  /**
   * Copies each retained record still in `block`, before the cursor leaves it and the
   * next blocks reuse its memory (record-blocks.ts).
   */
  keep(block: RecordReader): void {
    for (const state of this.tokens.values()) {
      const kept = state.retained;
      if (kept === undefined || kept.block !== block) continue;
      kept.block = block.recordAt(kept.offset).copyCurrent();
      kept.offset = 0;
    }
  }

  /** Forgets every channel (the replay closed). */
  clear(): void {
    this.tokens.clear();
  }
}
