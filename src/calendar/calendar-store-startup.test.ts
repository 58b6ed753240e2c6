import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Holidays } from '../api/schemas/utilities.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { CalendarStore, type CalendarStoreLogger } from './calendar-store.ts';
import type { TradingCalendar } from './trading-calendar.ts';

/** Waits on real I/O (the disk) until `done()` holds; throws after 2 s. */
async function until(done: () => boolean): Promise<void> {
  const give = Date.now() + 2_000;
  while (!done()) {
    if (Date.now() > give) throw new Error('condition not met within 2 s');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

const y2026: Holidays = {
  holidays: { '25-12-2026': 'Christmas' },
  specialTradingDays: {},
};
const START = Date.parse('2026-11-20T08:30:00+05:30');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiqs-calendar-startup-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A logger that keeps each line with the virtual instant it was written at. */
function recordingLogger(clock: VirtualClock) {
  const lines: { level: string; at: number; message: string; details: object }[] = [];
  const at = (level: string) => (details: object, message: string) =>
    lines.push({ level, at: clock.now() - START, message, details });
  const logger: CalendarStoreLogger = { info: at('info'), warn: at('warn'), error: at('error') };
  return { logger, lines };
}

/** A holidays service that never answers until told to; records each call's time and signal. */
function stalledService(clock: VirtualClock) {
  const calls: { at: number; signal: AbortSignal | undefined }[] = [];
  let answer: Holidays | undefined;
  return {
    calls,
    answerFromNowOn: (data: Holidays) => {
      answer = data;
    },
    fetchHolidays: (signal?: AbortSignal): Promise<Holidays> => {
      calls.push({ at: clock.now() - START, signal });
      return answer === undefined ? new Promise<Holidays>(() => {}) : Promise.resolve(answer);
    },
  };
}

// How I checked these can fail: with start() awaiting the fetch (the old code), the first
// and third tests timed out at `await started` and nothing was logged; with the old fixed
// retry wait, the backoff and cap expectations fail.
describe('CalendarStore: start-up with an unresponsive service', () => {
  it('says so within seconds, starts without a calendar, keeps retrying, loads when the service answers', async () => {
    const clock = new VirtualClock(START);
    const { logger, lines } = recordingLogger(clock);
    const service = stalledService(clock);
    const store = new CalendarStore({
      clock,
      path: join(dir, 'holidays.json'),
      fetchHolidays: service.fetchHolidays,
      serviceName: 'https://api.tiqs.trading',
      logger,
    });
    const seen: TradingCalendar[] = [];
    store.calendar$.subscribe((c) => seen.push(c));

    let done = false;
    const started = store.start().then((s) => {
      done = true;
      return s;
    });
    // The stored copy is looked for on disk first (real I/O), then the service is asked.
    await until(() => service.calls.length === 1);
    await clock.advanceByAsync(4_999);
    expect(done).toBe(false);
    await clock.advanceByAsync(1);
    const status = await started;
    expect(status.state).toBe('unavailable');
    const errors = lines.filter((l) => l.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.at).toBe(5_000);
    expect(errors[0]?.message).toMatch(
      /^holidays: https:\/\/api\.tiqs\.trading has not answered within 5000 ms; starting without a trading calendar .* retrying in the background with backoff$/,
    );

    // Each stalled fetch is abandoned after 30 s (its signal aborted); the waits between
    // tries double from 5 s: tries at 0, 35 s, 75 s, 125 s.
    await clock.advanceToAsync(START + 125_000);
    expect(service.calls.map((c) => c.at)).toEqual([0, 35_000, 75_000, 125_000]);
    expect(service.calls.slice(0, 3).every((c) => c.signal?.aborted === true)).toBe(true);
    expect(service.calls[3]?.signal?.aborted).toBe(false);
    const warned = lines.filter((l) => l.level === 'warn');
    expect(warned.map((l) => (l.details as { retryInMs?: number }).retryInMs)).toEqual([
      5_000, 10_000, 20_000,
    ]);
    expect(seen).toHaveLength(0);

    // The service comes back: the next try loads the calendar, which calendar$ announces.
    service.answerFromNowOn(y2026);
    await clock.advanceToAsync(START + 125_000 + 30_000 + 40_000);
    await store.settled();
    expect(service.calls.map((c) => c.at)).toEqual([0, 35_000, 75_000, 125_000, 195_000]);
    expect(seen).toHaveLength(1);
    expect(store.status()).toMatchObject({ state: 'ready', source: 'service', years: [2026] });

    // No retries once loaded: only the daily refresh timer is left.
    await clock.advanceByAsync(60 * 60_000);
    expect(service.calls).toHaveLength(5);
    store.stop();
    expect(clock.pending).toBe(0);
  });

  it('caps the retry wait at 5 minutes', async () => {
    const clock = new VirtualClock(START);
    const service = stalledService(clock);
    const store = new CalendarStore({
      clock,
      path: join(dir, 'holidays.json'),
      fetchHolidays: service.fetchHolidays,
      fetchTimeoutMs: 1,
      logger: recordingLogger(clock).logger,
    });
    const started = store.start();
    await until(() => service.calls.length === 1);
    await clock.advanceByAsync(5_000);
    await started;
    await clock.advanceToAsync(START + 3_600_000);
    const at = service.calls.map((c) => c.at);
    // Each try gives up after 1 ms, then waits 5 s, 10 s, ... up to 5 min.
    const waits = at.slice(1).map((t, i) => t - (at[i] ?? 0) - 1);
    expect(waits.slice(0, 9)).toEqual([
      5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000,
    ]);
    store.stop();
  });

  it('with a stored copy, warns and trades on it while the service is silent', async () => {
    const path = join(dir, 'holidays.json');
    const first = new CalendarStore({
      clock: new VirtualClock(START - 86_400_000),
      fetchHolidays: async () => y2026,
      path,
    });
    await first.start();
    first.stop();

    const clock = new VirtualClock(START);
    const { logger, lines } = recordingLogger(clock);
    const store = new CalendarStore({
      clock,
      path,
      fetchHolidays: stalledService(clock).fetchHolidays,
      logger,
    });
    const started = store.start();
    await until(() => clock.pending >= 2);
    await clock.advanceByAsync(5_000);
    expect(await started).toMatchObject({ state: 'ready', source: 'disk' });
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);
    expect(lines.find((l) => l.level === 'warn')?.message).toMatch(/using the stored calendar/);
    store.stop();
  });

  it('times the start-up wait on the network clock, not market time', async () => {
    // A rehearsal: market time runs fast, the network does not.
    const clock = new VirtualClock(START);
    const networkClock = new VirtualClock(0);
    const { logger, lines } = recordingLogger(clock);
    const service = stalledService(clock);
    const store = new CalendarStore({
      clock,
      networkClock,
      path: join(dir, 'holidays.json'),
      fetchHolidays: service.fetchHolidays,
      logger,
    });
    let done = false;
    const started = store.start().then(() => {
      done = true;
    });
    await until(() => service.calls.length === 1);
    await clock.advanceByAsync(60 * 60_000);
    expect(done).toBe(false);
    expect(service.calls).toHaveLength(1);
    await networkClock.advanceByAsync(5_000);
    await started;
    expect(lines.filter((l) => l.level === 'error')).toHaveLength(1);
    store.stop();
  });
});
