import type { Subscriber } from 'rxjs';

/**
 * The latest value of one token in one mode and the subscribers who want it. Cheaper
 * than a ReplaySubject per subscriber: one set of listeners, one cached value.
 *
 * @example
 * ```ts
 * const ch = new TokenChannel<MarketQuote<'ltp'>>();
 * ch.add(subscriber); // gets ch.last at once, if any
 * ch.publish(q);
 * ```
 */
export class TokenChannel<T> {
  /** The last value published (or refreshed), replayed to late subscribers. */
  last: T | undefined;
  /** Values published so far (a refresh of `last` alone is not one). */
  published = 0;
  private readonly listeners = new Set<Subscriber<T>>();
  /** Added without replay during the publish under way: they have the value already. */
  private readonly quiet = new Set<Subscriber<T>>();
  private publishing = false;

  constructor(initial?: T) {
    this.last = initial;
  }

  /** Number of subscribers listening. */
  get size(): number {
    return this.listeners.size;
  }

  /**
   * Adds a subscriber and replays the last value to it, unless `replay` is false (it has
   * that value already: a held follower back to an unchanged channel).
   */
  add(subscriber: Subscriber<T>, replay = true): void {
    this.listeners.add(subscriber);
    // A subscriber added from inside publish() is reached by the running loop itself,
    // unless it has the value already.
    if (this.publishing) {
      if (!replay) this.quiet.add(subscriber);
      return;
    }
    if (replay && this.last !== undefined) subscriber.next(this.last);
  }

  /** Removes a subscriber. */
  remove(subscriber: Subscriber<T>): void {
    this.listeners.delete(subscriber);
    this.quiet.delete(subscriber);
  }

  /** Stores `value` and sends it to every subscriber. */
  publish(value: T): void {
    this.last = value;
    this.published += 1;
    this.publishing = true;
    try {
      for (const s of this.listeners) if (!this.quiet.has(s)) s.next(value);
    } finally {
      this.publishing = false;
      this.quiet.clear();
    }
  }

  /** Completes every subscriber (bus shutdown). */
  complete(): void {
    for (const s of [...this.listeners]) s.complete();
    this.listeners.clear();
  }
}
