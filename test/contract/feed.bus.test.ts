import { runFeedContract } from './feed.contract.ts';
import { busVenue } from './feed-venues.ts';

// MarketDataBus polling a fake source each second (live and paper mode). Nothing skipped.
// Checked it can fail: with the bus's sameGreeks answering false the greeks test failed;
// with publishQuote's sameQuote check off the change-only and late-subscriber tests failed.
runFeedContract('MarketDataBus', busVenue, { skip: [] });
