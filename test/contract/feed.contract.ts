import { afterEach, beforeEach, describe, expect, it, type RunnerTestSuite } from 'vitest';
import type { MarketQuote } from '../../src/market-data/market-quote.ts';
import { projectQuote } from '../../src/market-data/project-quote.ts';
import type { ContractSkip } from './broker.contract.ts';
import { FEED_T0, FEED_TOKENS, type FeedVenue, type MakeFeedVenue } from './feed-venues.ts';

/**
 * The {@link MarketFeed} port's contract, written once and run against the bus (live,
 * paper) and the replay (backtests), both carrying the same scripted market: LTP steps
 * by 5 paise every 3 s, sampled each second, so two of every three samples are
 * unchanged. Hono's router contract is the model; skips state their reason.
 */

const { a, b, option } = FEED_TOKENS;

function testName(suite: RunnerTestSuite | undefined, name: string): string {
  const names: string[] = [];
  for (let s = suite; s !== undefined; s = s.suite) names.unshift(s.name);
  return [...names.slice(2), name].join(' > ');
}

/** What a subscriber saw: LTP and when it arrived, ms after T0. */
const seen = (q: MarketQuote) => [q.quote.ltp, q.receivedAt - FEED_T0];

/**
 * Runs the feed contract against venues made by `makeVenue`, one fresh venue per test.
 *
 * @example
 * ```ts
 * runFeedContract('ReplayMarket', replayVenue, { skip: [] });
 * ```
 */
export function runFeedContract(
  name: string,
  makeVenue: MakeFeedVenue,
  options: { skip?: ContractSkip[] } = {},
): void {
  describe(`MarketFeed contract: ${name}`, () => {
    let venue: FeedVenue;

    beforeEach(({ task, skip }) => {
      const full = testName(task.suite, task.name);
      const skipped = options.skip?.find((s) => s.tests.includes(full));
      if (skipped !== undefined) {
        skip(skipped.reason);
        return;
      }
      venue = makeVenue();
    });
    afterEach(() => venue?.close());

    describe('quotes', () => {
      it('a subscriber gets each changed quote at its instant; unchanged ones stay quiet', async () => {
        const got: number[][] = [];
        venue.feed.quote$(a, 'full').subscribe((q) => got.push(seen(q)));
        await venue.advance(10_000);
        expect(got).toEqual([
          [10_001, 0],
          [10_006, 3_000],
          [10_011, 6_000],
          [10_016, 9_000],
        ]);
      });

      it('the latest quote is cached and replayed at once to a late subscriber', async () => {
        venue.feed.quote$(a, 'full').subscribe();
        await venue.advance(4_000);
        expect(venue.feed.latest(a, 'full')?.quote.ltp).toBe(10_006);
        const late: number[][] = [];
        venue.feed.quote$(a, 'full').subscribe((q) => late.push(seen(q)));
        // At once, before time moves; an unchanged quote (4 s) stayed quiet but refreshed
        // the cache, so the greeting carries the last arrival.
        expect(late).toEqual([[10_006, 4_000]]);
        await venue.advance(3_000);
        expect(late).toEqual([
          [10_006, 4_000],
          [10_011, 6_000],
        ]);
      });

      it('lower modes are the full quote projected; a late lower-mode subscriber is greeted from it', async () => {
        const full: MarketQuote<'full'>[] = [];
        const ltp: MarketQuote<'ltp'>[] = [];
        venue.feed.quote$(b, 'full').subscribe((q) => full.push(q));
        venue.feed.quote$(b, 'ltp').subscribe((q) => ltp.push(q));
        await venue.advance(4_000);
        expect(ltp.map((q) => q.quote)).toEqual(
          full.map((q) => projectQuote(q.quote, 'full', 'ltp')),
        );
        expect(venue.feed.latest(b, 'ltp')?.quote).toEqual({ token: b, ltp: 10_007, close: 9_907 });
        const ohlcv: number[] = [];
        venue.feed.quote$(b, 'ohlcv').subscribe((q) => ohlcv.push(q.quote.ltp));
        expect(ohlcv).toEqual([10_007]);
      });

      it('latest() knows only followed tokens; quoteTokenList() lists them', async () => {
        const sub = venue.feed.quotes$([b, a, a], 'ltp').subscribe();
        await venue.advance(1_000);
        expect(venue.feed.quoteTokenList()).toEqual([a, b]);
        expect(venue.feed.latest(option, 'ltp')).toBeUndefined();
        sub.unsubscribe();
        expect(venue.feed.quoteTokenList()).toEqual([]);
      });
    });

    describe('greeks', () => {
      it('greeks of an option arrive on change and are replayed to a late subscriber', async () => {
        const deltas: number[] = [];
        venue.feed.greeks$([option]).subscribe((g) => deltas.push(g.greeks.delta));
        await venue.advance(4_000);
        expect(deltas).toEqual([0.10005, 0.1001]);
        const late: number[] = [];
        venue.feed.greeks$([option]).subscribe((g) => late.push(g.greeks.delta));
        expect(late).toEqual([0.1001]);
      });
    });

    describe('lifecycle', () => {
      it('close() completes every stream', async () => {
        let quotesDone = false;
        let greeksDone = false;
        venue.feed.quote$(a, 'ltp').subscribe({ complete: () => (quotesDone = true) });
        venue.feed.greeks$([option]).subscribe({ complete: () => (greeksDone = true) });
        await venue.advance(1_000);
        venue.close();
        expect([quotesDone, greeksDone]).toEqual([true, true]);
      });
    });
  });
}
