/**
 * Memory of the market-data bus on a long run: heap after 1 000 000 polled quotes in
 * virtual time against heap after 10 000, with subscribers coming and going (one of them
 * moves to a new set of tokens every 100 polls, so released tokens must be forgotten).
 * Fails (exit 1) when the heap grows by more than 25% or 2 MB.
 *
 * Run: node --expose-gc --import tsx bench/market-data-memory.bench.ts
 */
import pino from 'pino';
import type { Subscription } from 'rxjs';
import { VirtualClock } from '../src/clock/virtual-clock.ts';
import { MarketDataBus } from '../src/market-data/market-data-bus.ts';
import { fakeQuoteSource } from '../src/market-data/testing/fake-quote-source.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) {
  console.error('run with node --expose-gc');
  process.exit(2);
}

const START = Date.parse('2026-11-20T04:30:00Z');
const TOKENS_PER_SET = 100;
const clock = new VirtualClock(START);
const source = fakeQuoteSource(clock, START, {
  ltp: (token, at) => token + Math.floor(at / 1_000),
  record: false,
});
const bus = new MarketDataBus({
  source,
  clock,
  logger: pino({ level: 'silent' }),
  intervalMs: 1_000,
  batchSize: 100,
  quoteRequestsPerSecond: 1_000,
  staleAfterIntervals: 3,
});
const tokens = (from: number): number[] =>
  Array.from({ length: TOKENS_PER_SET }, (_, i) => from + i);

let received = 0;
const count = (): void => {
  received += 1;
};
// Two steady subscribers in two modes, one that wanders across the token space.
const steady = [
  bus.quotes$(tokens(1_000), 'full').subscribe(count),
  bus.quotes$(tokens(1_050), 'ltp').subscribe(count),
];
let wandering: Subscription = bus.quotes$(tokens(100_000), 'ohlcv').subscribe(count);
let polls = 0;

function pollUntil(quotes: number): void {
  clock.advanceBy(0);
  while (source.quotesServed < quotes) {
    clock.advanceBy(1_000);
    polls += 1;
    if (polls % 100 === 0) {
      wandering.unsubscribe();
      wandering = bus.quotes$(tokens(100_000 + polls * 1_000), 'ohlcv').subscribe(count);
    }
  }
}

function heapMb(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed / 1_048_576;
}

const t0 = Date.now();
pollUntil(10_000);
const early = { quotes: source.quotesServed, heap: heapMb(), stats: bus.stats };
pollUntil(100_000);
const middle = { quotes: source.quotesServed, heap: heapMb(), stats: bus.stats };
pollUntil(1_000_000);
const late = { quotes: source.quotesServed, heap: heapMb(), stats: bus.stats };
const seconds = (Date.now() - t0) / 1_000;

for (const s of steady) s.unsubscribe();
wandering.unsubscribe();
const after = bus.stats;
bus.close();

console.log(
  `polls: ${polls} (${(polls / 3_600).toFixed(1)} h of virtual time at 1 s), ${seconds.toFixed(1)} s real`,
);
console.table([
  {
    at: 'after 10k quotes',
    quotes: early.quotes,
    'heap MB': early.heap.toFixed(2),
    tokens: early.stats.quoteTokens,
  },
  {
    at: 'after 100k quotes',
    quotes: middle.quotes,
    'heap MB': middle.heap.toFixed(2),
    tokens: middle.stats.quoteTokens,
  },
  {
    at: 'after 1M quotes',
    quotes: late.quotes,
    'heap MB': late.heap.toFixed(2),
    tokens: late.stats.quoteTokens,
  },
]);
const growth = late.heap - early.heap;
const ratio = late.heap / early.heap;
console.log(
  `heap ratio 1M/10k: ${ratio.toFixed(3)} (growth ${growth.toFixed(2)} MB); quotes delivered: ${received}`,
);
console.log(`after unsubscribing all: ${after.quoteTokens} tokens, ${after.pollGroups} poll loops`);
if (ratio > 1.25 && growth > 2) {
  console.error('FAIL: heap grows with the number of polled quotes');
  process.exit(1);
}
if (after.quoteTokens !== 0 || after.pollGroups !== 0) {
  console.error('FAIL: tokens or loops kept after the last subscriber left');
  process.exit(1);
}
