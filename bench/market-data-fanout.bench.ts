/**
 * Fan-out cost of the market-data bus: nanoseconds per delivered quote per subscriber for
 * 1, 10 and 100 subscribers of the same 100 tokens, against a bare loop that builds the
 * same quotes and calls the same number of plain callbacks, measured in the same run.
 *
 * Run: node --expose-gc --import tsx bench/market-data-fanout.bench.ts
 */

import pino from 'pino';
import { from } from 'rxjs';
import { VirtualClock } from '../src/clock/virtual-clock.ts';
import { MarketDataBus } from '../src/market-data/market-data-bus.ts';
import type { QuoteSource } from '../src/market-data/quote-source.ts';
import { fakeQuoteSource } from '../src/market-data/testing/fake-quote-source.ts';

const TOKENS = Array.from({ length: 100 }, (_, i) => 1_000 + i);
const POLLS = 400;
const ROUNDS = 5;
const START = Date.parse('2026-11-20T04:30:00Z');
const silent = pino({ level: 'silent' });
// Every poll moves every price, so every quote is delivered.
const ltp = (token: number, at: number): number => token + Math.floor(at / 1_000);

let sink = 0;

function runBus(subscribers: number): { ns: number; deliveries: number } {
  const clock = new VirtualClock(START);
  const source: QuoteSource = fakeQuoteSource(clock, START, { ltp });
  const bus = new MarketDataBus({
    source,
    clock,
    logger: silent,
    intervalMs: 1_000,
    batchSize: 100,
    quoteRequestsPerSecond: 1_000,
  });
  let deliveries = 0;
  const subs = Array.from({ length: subscribers }, () =>
    bus.quotes$(TOKENS, 'ltp').subscribe((q) => {
      deliveries += 1;
      sink += q.quote.ltp;
    }),
  );
  clock.advanceBy(0);
  deliveries = 0;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < POLLS; i++) clock.advanceBy(1_000);
  const ns = Number(process.hrtime.bigint() - t0);
  for (const s of subs) s.unsubscribe();
  bus.close();
  return { ns, deliveries };
}

function runBare(subscribers: number): { ns: number; deliveries: number } {
  const clock = new VirtualClock(START);
  const source = fakeQuoteSource(clock, START, { ltp });
  const callbacks = Array.from({ length: subscribers }, () => (q: { ltp: number }) => {
    deliveries += 1;
    sink += q.ltp;
  });
  let deliveries = 0;
  const t0 = process.hrtime.bigint();
  for (let i = 1; i <= POLLS; i++) {
    clock.advanceBy(1_000);
    from(source.quotes('ltp', TOKENS)).subscribe((quotes) => {
      for (const q of quotes) for (const cb of callbacks) cb(q);
    });
  }
  const ns = Number(process.hrtime.bigint() - t0);
  return { ns, deliveries };
}

function best(run: () => { ns: number; deliveries: number }): number {
  let min = Number.POSITIVE_INFINITY;
  for (let r = 0; r < ROUNDS; r++) {
    const { ns, deliveries } = run();
    min = Math.min(min, ns / deliveries);
  }
  return min;
}

// Warm up both paths so the JIT has settled before measuring.
best(() => runBus(10));
best(() => runBare(10));

const rows = [1, 10, 100].map((n) => {
  const bus = best(() => runBus(n));
  const bare = best(() => runBare(n));
  return {
    subscribers: n,
    'bus ns/quote/sub': bus.toFixed(1),
    'bare ns/quote/sub': bare.toFixed(1),
    ratio: (bus / bare).toFixed(2),
  };
});
console.log(`fan-out: ${TOKENS.length} tokens, ${POLLS} polls, best of ${ROUNDS}`);
console.table(rows);
const one = Number(rows[0]?.['bus ns/quote/sub']);
const hundred = Number(rows[2]?.['bus ns/quote/sub']);
console.log(
  `per-subscriber cost at 100 subscribers vs 1: ${(hundred / one).toFixed(2)}× (poll, projection and comparison are paid once per quote, not per subscriber)`,
);
if (sink === 42) console.log('');
