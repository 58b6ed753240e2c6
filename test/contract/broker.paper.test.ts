import { runBrokerContract } from './broker.contract.ts';
import { paperVenue } from './broker-venues.ts';

// PaperBroker (paper mode, backtests) on quotes of a seeded SimExchange. Nothing skipped.
// Checked it can fail: with orderBook() listing every order ever (engine.orders(), the
// behaviour before the day-scoping fix) the day-change test failed; with its SimError
// left unmapped (no RefusedError) the refusal test failed.
runBrokerContract('PaperBroker', paperVenue, { skip: [] });
