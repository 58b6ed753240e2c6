import { runBrokerContract } from './broker.contract.ts';
import { simExchangeVenue } from './broker-venues.ts';

// SimExchange in process (the simulator's core, adapted to the port). Nothing skipped.
// Checked it can fail: with the order-book record's `tags` blanked the tags and cover-leg
// tests failed; without the after-market clause of OrderEngine.dayOrders the day-change
// test failed (an AMO filled at Tuesday's open vanished from Tuesday's book).
runBrokerContract('SimExchange', simExchangeVenue, { skip: [] });
