import { NEVER, type Observable, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Quote } from '../api/schemas/quote.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { QuoteMode } from '../domain/order-params.ts';
import { MarketDataBus } from './market-data-bus.ts';
import type { QuoteSource } from './quote-source.ts';
import { fullQuoteOf, memoryLogger } from './testing/fake-quote-source.ts';

const T0 = Date.parse('2026-11-20T03:45:00Z');

/** A source that keeps every request's signal and stalls the tokens in `stalled`. */
function signalSource(stalled: ReadonlySet<number>) {
  const signals: AbortSignal[] = [];
  const source: QuoteSource = {
    // Full quotes whatever the mode asked (the bus under test polls in one mode).
    quotes: <M extends QuoteMode>(_mode: M, tokens: readonly number[], signal?: AbortSignal) => {
      if (signal !== undefined) signals.push(signal);
      if (tokens.some((t) => stalled.has(t))) return NEVER as Observable<Quote<M>[]>;
      return of(tokens.map((t) => fullQuoteOf(t, 10_000 + t) as Quote<M>));
    },
    greeks: () => of([]),
  };
  return { source, signals };
}

function busOn(clock: VirtualClock, source: QuoteSource): MarketDataBus {
  return new MarketDataBus({
    source,
    clock,
    logger: memoryLogger().logger,
    intervalMs: 1_000,
    batchSize: 1,
    warmupMs: 0,
    requestTimeoutMs: 500,
    quoteRequestsPerSecond: 1_000,
    serviceQuoteLimitPerSecond: 1_000,
    jitterMarginMs: 0,
  });
}

describe('a poll cycle and its abort signal', () => {
  it('leaves the signal of a cycle whose every request answered alone', () => {
    const clock = new VirtualClock(T0);
    const { source, signals } = signalSource(new Set());
    const bus = busOn(clock, source);
    const seen: number[] = [];
    bus.quotes$([1, 2], 'ltp').subscribe((q) => seen.push(q.token));
    clock.advanceBy(2_500);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(signals.length).toBeGreaterThanOrEqual(4);
    // Nothing to cancel: aborting would only build a DOMException on the tick's path.
    expect(signals.filter((s) => s.aborted)).toHaveLength(0);
    bus.close();
  });

  it('aborts the requests of a cycle that timed out', () => {
    const clock = new VirtualClock(T0);
    const { source, signals } = signalSource(new Set([2]));
    const bus = busOn(clock, source);
    bus.quotes$([1, 2], 'ltp').subscribe();
    clock.advanceBy(1);
    expect(signals).toHaveLength(2);
    expect(signals.some((s) => s.aborted)).toBe(false);
    // Token 2's request never answers: at its time-out the cycle is given up on and its
    // requests are aborted, so a real HTTP request does not linger.
    clock.advanceBy(600);
    expect(signals[1]?.aborted).toBe(true);
    bus.close();
  });
});
