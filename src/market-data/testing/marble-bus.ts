import { TestScheduler } from 'rxjs/testing';
import { expect } from 'vitest';
import type { Clock } from '../../clock/clock.ts';
import { schedulerClock } from '../../clock/scheduler-clock.ts';
import { MarketDataBus, type MarketDataBusOptions } from '../market-data-bus.ts';
import {
  type FakeQuoteSource,
  type FakeSourceOptions,
  fakeQuoteSource,
  type MemoryLogger,
  memoryLogger,
} from './fake-quote-source.ts';

/** Epoch of frame 0 in marble tests: 2026-11-20 09:15 IST. */
export const T0 = Date.parse('2026-11-20T03:45:00Z');

/** What a marble test of the bus gets. */
export interface MarbleBusKit {
  readonly helpers: Parameters<Parameters<TestScheduler['run']>[0]>[0];
  readonly scheduler: TestScheduler;
  readonly clock: Clock;
  readonly source: FakeQuoteSource;
  readonly bus: MarketDataBus;
  readonly log: MemoryLogger;
}

/**
 * Runs `body` inside `TestScheduler.run` with a bus on a fake source; virtual time stops
 * after `maxFrames` (the poll loop would otherwise run for ever). Returns the kit, so
 * that calls and logs can be checked after the flush.
 *
 * @example
 * ```ts
 * runBus({ intervalMs: 10 }, {}, 100, ({ bus, helpers }) => { ... });
 * ```
 */
export function runBus(
  options: Partial<MarketDataBusOptions>,
  sourceOptions: FakeSourceOptions,
  maxFrames: number,
  body: (kit: MarbleBusKit) => void,
): MarbleBusKit {
  let kit: MarbleBusKit | undefined;
  const scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  scheduler.run((helpers) => {
    scheduler.maxFrames = maxFrames;
    const clock = schedulerClock(scheduler, T0);
    const source = fakeQuoteSource(clock, T0, sourceOptions);
    const log = memoryLogger();
    const bus = new MarketDataBus({
      source,
      clock,
      logger: log.logger,
      warmupMs: 0,
      // Marble tests use 10 ms intervals; a budget that fits them unless a test says
      // otherwise: sends 1 ms apart (the budget never sends two at once).
      quoteRequestsPerSecond: 1_000,
      serviceQuoteLimitPerSecond: 1_000,
      jitterMarginMs: 0,
      greeksRequestsPerSecond: 1_000,
      ...options,
    });
    kit = { helpers, scheduler, clock, source, bus, log };
    body(kit);
  });
  if (kit === undefined) throw new Error('TestScheduler.run did not run');
  return kit;
}
