import { runFeedContract } from './feed.contract.ts';
import { replayVenue } from './feed-venues.ts';

// ReplayMarket pushing a recording of the same script (backtests). Nothing skipped.
// Checked it can fail: with a new channel no longer seeded from a richer one (seedFrom)
// the projection test failed; with publishQuote's sameQuote check off the change-only and
// late-subscriber tests failed.
runFeedContract('ReplayMarket', replayVenue, { skip: [] });
