import { runBrokerContract } from './broker.contract.ts';
import { paperVenue } from './broker-venues.ts';

// PaperBroker (paper mode, backtests) on quotes of a seeded SimExchange. Nothing skipped.
// Checked it can fail: with orderBook() listing every order ever (engine.orders(), the
// behaviour before the day-scoping fix) the day-change test failed; with its SimError
// left unmapped (no RefusedError) the refusal test failed; with modifyOrder reading the
// request as a placement (toOrderParams, as before) the cover-modify test failed (refused).
runBrokerContract('PaperBroker', paperVenue, { skip: [] });
