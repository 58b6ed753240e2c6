import { Observable, Subject, type Subscriber } from 'rxjs';
import type { VirtualClock } from '../clock/virtual-clock.ts';
import type { QuoteMode } from '../domain/order-params.ts';
import type { SubscribeOptions } from '../market-data/bus-options.ts';
import type { HealthEvent, HealthStatus, StaleEvent } from '../market-data/health.ts';
import type { LastPriceBand } from '../market-data/last-price-band.ts';
import type { MarketDataBusStats } from '../market-data/market-data-bus.ts';
import type { MarketFeed } from '../market-data/market-feed.ts';
import type { MarketGreeks, MarketQuote } from '../market-data/market-quote.ts';
import type { Recording } from '../recording/read-recording.ts';
import { RecordCursor } from '../recording/record-cursor.ts';
import type { RecordReader } from '../recording/record-reader.ts';
import type { RecordStream } from '../recording/recording-set.ts';
import { ReplayChannels } from './replay-channels.ts';

/** Options of {@link ReplayMarket.play}. */
export interface PlayOptions {
  /** Called about once a virtual minute with the share of the window done (0..1). */
  onProgress?: (done: number) => void;
  /**
   * Periodic samples of state (a backtest's equity curve), taken without a timer:
   * `take(at)` for every `everyMs` after the start, up to the end, each as the state
   * stood at `at`. Nothing changes between steps, so a sample is taken just before the
   * step at or after its instant, before that step's timers fire, as a timer of its own
   * would have seen it; only an idle night of samples costs no step. `repeat` is true
   * for each sample after the first between the same two steps: nothing ran since the one
   * before it, so only what depends on `at` itself can differ.
   */
  sample?: { everyMs: number; take(at: number, repeat: boolean): void };
  /**
   * Stops the replay between two instants once aborted (a backtest whose strategy just
   * subscribed to a token the data lacks): `play` returns with the clock where it stopped.
   */
  signal?: AbortSignal;
}

/** How often (virtual ms) {@link ReplayMarket.play} reports progress. */
const PROGRESS_EVERY_MS = 60_000;

/**
 * Settled already: `process.nextTick(() => SETTLED.then(next))` calls `next` once every
 * pending promise continuation has run, however long its chain. Node runs the tick queue
 * only when V8's microtask queue is empty, and drains both in turn until neither holds
 * anything (`processTicksAndRejections`), so `next` comes after the whole of an instant's
 * follow-up work, as after a `setImmediate` turn, but without an event-loop iteration (its
 * poll syscall and check phase) for each of the ≈ 143 000 instants of 30 days: ≈ 1.5 µs of
 * CPU an instant against ≈ 0.3 µs (issue 13). The tick only queues `next` as a microtask:
 * ticks run back to back, so `next` called by the tick itself would run before the
 * microtasks of the instant before it. What this does not wait for, a `setImmediate` or
 * I/O callback, nothing on the backtest's path schedules; the loop still turns at each
 * block read.
 */
const SETTLED = Promise.resolve();

/**
 * The market of a backtest: a recording pushed, record by record, at the instants it was
 * recorded, into the same per-token, per-mode channels the `MarketDataBus` keeps
 * (last-value replay, richer modes projected down with `projectQuote`, unchanged quotes
 * kept quiet with `sameQuote`, a new channel seeded from a richer one). The kernel, the
 * strategies and the paper broker see it through {@link MarketFeed}, as they see the bus.
 *
 * A recording holds what the bus polled, stamped with the instant it asked, so pushing
 * it gives subscribers what polling it gave them, without a poll loop: no per-request
 * timers, promises or budget in the replay.
 *
 * {@link play} drives the virtual clock: instant by instant, the earliest of the next
 * timer and the next record; timers due then fire, then the records of that instant are
 * published, then a drain of the microtask queue lets every promise continuation (the execution
 * engine, the order tracker, the paper broker) run before time moves on.
 *
 * The records come from bytes in memory or from a {@link RecordStream} (a backtest's
 * `openRecordings`), read a block at a time as the replay reaches them: memory does not
 * grow with the recording's length. A block holds whole instants, so an instant's
 * records are still published together.
 *
 * @example
 * ```ts
 * const market = new ReplayMarket(await openRecordings(dir), clock);
 * const kernel = await Kernel.create({ config, configFile, logger, clock, source, market });
 * await kernel.start();
 * await market.play(endMs);
 * ```
 */
export class ReplayMarket implements MarketFeed {
  /** Stands on the next record not yet published, while `pending`. */
  private readonly cursor: RecordCursor;
  private readonly channels = new ReplayChannels();
  private readonly done = new Subject<never>();
  private closed = false;
  /** Records decoded and delivered so far (quotes and greeks): the backtest's events. */
  events = 0;
  /**
   * Steps {@link play} took: each moved the clock to the next instant something was due
   * (a timer or a record). At most the records plus the timers that fired.
   */
  steps = 0;

  /** Always `ok`: a recording neither fails nor pauses; gaps are simply no records. */
  readonly health$: Observable<HealthEvent>;
  /** Never emits: staleness is a property of polling, and a replay does not poll. */
  readonly stale$: Observable<StaleEvent>;
  /** Held full-quote channels are kept for their follower's return (see `held`). */
  readonly holdsChannels = true;

  constructor(
    recording: Recording | RecordStream,
    private readonly clock: VirtualClock,
  ) {
    this.cursor = new RecordCursor(recording);
    const started = clock.now();
    this.health$ = new Observable<HealthEvent>((s) => {
      s.next({ status: 'ok', at: started });
      return this.done.subscribe(s);
    });
    this.stale$ = this.done.asObservable();
  }

  // --- MarketFeed -------------------------------------------------------------------

  quotes$<M extends QuoteMode>(
    tokens: readonly number[],
    mode: M,
    options?: SubscribeOptions,
  ): Observable<MarketQuote<M>> {
    const unique = [...new Set(tokens)];
    const held = options?.held === true && mode === 'full';
    return new Observable<MarketQuote<M>>((subscriber) => {
      if (this.closed) {
        subscriber.complete();
        return undefined;
      }
      const sub = subscriber as unknown as Subscriber<MarketQuote>;
      for (const token of unique) this.channels.addQuote(token, mode, sub, held);
      return () => {
        if (this.closed) return;
        for (const token of unique) this.channels.removeQuote(token, mode, sub);
      };
    });
  }

  quote$<M extends QuoteMode>(
    token: number,
    mode: M,
    options?: SubscribeOptions,
  ): Observable<MarketQuote<M>> {
    return this.quotes$([token], mode, options);
  }

  greeks$(tokens: readonly number[]): Observable<MarketGreeks> {
    const unique = [...new Set(tokens)];
    return new Observable<MarketGreeks>((subscriber) => {
      if (this.closed) {
        subscriber.complete();
        return undefined;
      }
      for (const token of unique) this.channels.addGreeks(token, subscriber);
      return () => {
        if (this.closed) return;
        for (const token of unique) this.channels.removeGreeks(token, subscriber);
      };
    });
  }

  /** See {@link ReplayChannels.lastPrice}: a held channel answers without a decode. */
  lastPrice(token: number): LastPriceBand | undefined {
    return this.channels.lastPrice(token);
  }

  latest<M extends QuoteMode>(token: number, mode: M): MarketQuote<M> | undefined {
    return this.channels.latest(token, mode) as MarketQuote<M> | undefined;
  }

  get status(): HealthStatus {
    return 'ok';
  }

  get stats(): MarketDataBusStats {
    return {
      quoteRequests: 0,
      greeksRequests: 0,
      failedRequests: 0,
      inFlightRequests: 0,
      ...this.channels.sizes,
      pollGroups: 0,
    };
  }

  quoteTokenList(): number[] {
    return this.channels.quoteTokenList();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.channels.close();
    this.cursor.close();
    this.done.complete();
  }

  // --- replay -----------------------------------------------------------------------

  /**
   * Replays up to `to` (epoch ms, inclusive) on the clock: every timer due and every
   * record recorded by then, in time order, timers first at a shared instant (as a poll's
   * answer came after the timers of its instant). A window starting inside the
   * recording first gets, at once, the newest record of each kind and token before it.
   */
  async play(to: number, options: PlayOptions = {}): Promise<void> {
    const { clock, cursor } = this;
    const from = clock.now();
    this.keepHeld();
    if ((await cursor.ready()) && cursor.reader.time < from) await this.catchUp(from);
    let reportAt = from + PROGRESS_EVERY_MS;
    const { sample } = options;
    let sampleAt = sample === undefined ? Number.POSITIVE_INFINITY : from + sample.everyMs;
    const samplesUntil = (at: number): void => {
      if (sample === undefined) return;
      for (let repeat = false; sampleAt <= at; sampleAt += sample.everyMs, repeat = true) {
        sample.take(sampleAt, repeat);
      }
    };
    // One instant a call, each after a drain (see SETTLED), as a loop of `await turn()`
    // did, without its promise and await a step (≈ 0.4 KB allocated each, 143 000 steps).
    const finished = await new Promise<boolean>((resolve, reject) => {
      const resume = (): void => {
        void SETTLED.then(instant);
      };
      const instant = (): void => {
        try {
          if (this.closed || options.signal?.aborted === true) {
            resolve(false);
            return;
          }
          // The block was used up: read the next (only streams wait here, between instants).
          if (cursor.pending) {
            advance();
            return;
          }
          this.keepHeld();
          cursor.ready().then(() => {
            try {
              if (this.closed) resolve(false);
              else advance();
            } catch (err) {
              reject(err);
            }
          }, reject);
        } catch (err) {
          reject(err);
        }
      };
      const advance = (): void => {
        const due = clock.nextDue() ?? Number.POSITIVE_INFINITY;
        const at = cursor.pending ? cursor.reader.time : Number.POSITIVE_INFINITY;
        const next = Math.min(due, at);
        if (next > to) {
          resolve(true);
          return;
        }
        samplesUntil(next);
        this.steps += 1;
        clock.advanceTo(next);
        if (at <= next) this.publishUntil(clock.now());
        if (options.onProgress !== undefined && next >= reportAt) {
          reportAt = next + PROGRESS_EVERY_MS;
          options.onProgress((next - from) / Math.max(1, to - from));
        }
        process.nextTick(resume);
      };
      process.nextTick(resume);
    });
    if (!finished) return;
    samplesUntil(to);
    clock.advanceTo(to);
    options.onProgress?.(1);
  }

  /** Publishes every record at or before `now` (all in the current block), in file order. */
  private publishUntil(now: number): void {
    const c = this.cursor;
    while (c.pending && c.reader.time <= now) {
      this.publishCurrent(c.reader, now);
      c.step();
    }
  }

  /**
   * Records before `now`: only the newest of each kind and token is published (in file
   * order), as the first poll of the window would have answered; older ones are skipped
   * undecoded, so a late window neither bursts stale quotes nor pays for them.
   */
  private async catchUp(now: number): Promise<void> {
    const c = this.cursor;
    // The block and offset of the newest record of each kind and token (a copy once its
    // block is left behind), and its place in the file.
    const newest = new Map<string, { block: RecordReader; offset: number; seq: number }>();
    let seq = 0;
    for (;;) {
      if (!c.pending) {
        // The next blocks reuse this one's memory (record-blocks.ts): what is kept from it
        // is copied first, a record a kind and token at most.
        for (const kept of newest.values()) {
          if (kept.block !== c.reader) continue;
          kept.block.seek(kept.offset);
          kept.block = kept.block.copyCurrent();
          kept.offset = 0;
        }
        this.keepHeld();
        if (!(await c.ready())) break;
      }
      if (c.reader.time >= now) break;
      const r = c.reader;
      newest.set(`${r.kind}:${r.token}`, { block: r, offset: r.offset, seq: seq++ });
      c.step();
    }
    const resume = c.pending ? c.reader.offset : -1;
    for (const { block, offset } of [...newest.values()].sort((a, b) => a.seq - b.seq)) {
      block.seek(offset);
      this.publishCurrent(block, now);
    }
    if (c.pending) c.reader.seek(resume);
  }

  /** Publishes the reader's current record (see {@link ReplayChannels.publish}) and counts it. */
  private publishCurrent(r: RecordReader, receivedAt: number): void {
    this.events += 1;
    this.channels.publish(r, receivedAt);
  }

  /** Copies the retained records of held channels before the cursor leaves their block. */
  private keepHeld(): void {
    if (!this.cursor.pending && this.channels.retaining) this.channels.keep(this.cursor.reader);
  }
}
