import { runBrokerContract } from './broker.contract.ts';
import { tiqsClientVenue } from './broker-venues.ts';

// TiqsClient over loopback HTTP to the simulator: the live path. Nothing skipped.
// Checked it can fail: with the order-book record's `tags` blanked (order-records.ts) the
// tags and cover-leg tests failed; with the cover leg spawned as SL-LMT the cover test
// failed; without the after-market clause of OrderEngine.dayOrders the day-change test failed.
runBrokerContract('TiqsClient', tiqsClientVenue, { skip: [] });
