import pino from 'pino';
import { from } from 'rxjs';
import { ReplayMarket } from '../../src/backtest/replay-market.ts';
import { VirtualClock } from '../../src/clock/virtual-clock.ts';
import { MarketDataBus } from '../../src/market-data/market-data-bus.ts';
import type { MarketFeed } from '../../src/market-data/market-feed.ts';
import { fakeQuoteSource } from '../../src/market-data/testing/fake-quote-source.ts';
import type { Recording } from '../../src/recording/read-recording.ts';
import { RecordWriter } from '../../src/recording/record-writer.ts';
import { memoryRecording } from '../helpers/memory-recording.ts';

/** Instant 0 of every feed venue: Friday 20 November 2026, 09:15 IST. */
export const FEED_T0 = Date.parse('2026-11-20T09:15:00+05:30');
/** How often the market is sampled: the bus's poll interval, the recording's spacing. */
const FEED_STEP_MS = 1_000;
/** How long the scripted market runs. */
const SPAN_MS = 60_000;

/** The scripted market both venues carry: LTP in paise of `token` at `at` ms after T0. */
const scriptLtp = (token: number, at: number): number =>
  10_000 + token + 5 * Math.floor(at / 3_000);

/**
 * One implementation of the {@link MarketFeed} port carrying {@link scriptLtp} (full
 * quotes, and greeks whose delta is LTP / 100 000), on a virtual clock.
 */
export interface FeedVenue {
  readonly feed: MarketFeed;
  readonly clock: VirtualClock;
  /** Moves virtual time on by `ms`, letting the venue publish what falls due. */
  advance(ms: number): Promise<void>;
  close(): void;
}

/** Makes a fresh venue whose clock stands at {@link FEED_T0}. */
export type MakeFeedVenue = () => FeedVenue;

/** `MarketDataBus` polling a fake source of the script every second (live and paper mode). */
export const busVenue: MakeFeedVenue = () => {
  const clock = new VirtualClock(FEED_T0);
  const bus = new MarketDataBus({
    source: fakeQuoteSource(clock, FEED_T0, { ltp: scriptLtp }),
    clock,
    logger: pino({ level: 'silent' }),
    intervalMs: FEED_STEP_MS,
    greeksIntervalMs: FEED_STEP_MS,
  });
  return { feed: bus, clock, advance: (ms) => clock.advanceByAsync(ms), close: () => bus.close() };
};

/**
 * The same script as a recording (what the bus would have recorded polling it in full
 * mode, with greeks, each second), pushed by `ReplayMarket` (backtests).
 */
export const replayVenue: MakeFeedVenue = () => {
  const clock = new VirtualClock(FEED_T0);
  const market = new ReplayMarket(scriptRecording(), clock);
  return {
    feed: market,
    clock,
    advance: (ms) => market.play(clock.now() + ms),
    close: () => market.close(),
  };
};

/** Tokens the recording holds: two equities and an option (greeks). */
export const FEED_TOKENS = { a: 1, b: 2, option: 5 } as const;

function scriptRecording(): Recording {
  const sampler = new VirtualClock(FEED_T0);
  const source = fakeQuoteSource(sampler, FEED_T0, { ltp: scriptLtp });
  const w = new RecordWriter(FEED_T0);
  let records = 0;
  for (let at = 0; at <= SPAN_MS; at += FEED_STEP_MS) {
    sampler.advanceTo(FEED_T0 + at);
    // The fake answers synchronously, so each sample is written before the next.
    from(source.quotes('full', [FEED_TOKENS.a, FEED_TOKENS.b, FEED_TOKENS.option])).subscribe(
      (qs) => {
        for (const q of qs) w.quote('full', q, FEED_T0 + at);
        records += qs.length;
      },
    );
    from(source.greeks([FEED_TOKENS.option])).subscribe(([g]) => {
      if (g !== undefined) w.greeks(FEED_TOKENS.option, g, FEED_T0 + at);
      records += 1;
    });
  }
  return memoryRecording(w, { startMs: FEED_T0, endMs: FEED_T0 + SPAN_MS, records });
}
