import { describe, expect, it } from 'vitest';
import { memoryRecording } from '../../test/helpers/memory-recording.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { MarketQuote } from '../market-data/market-quote.ts';
import type { Recording } from '../recording/read-recording.ts';
import { RecordWriter } from '../recording/record-writer.ts';
import { ReplayMarket } from './replay-market.ts';

const T0 = Date.parse('2026-11-20T03:45:00Z');
const ohlcv = (ltp: number) => ({
  token: 1,
  open: 95,
  high: 110,
  low: 94,
  close: 90,
  ltp,
  ltt: 0,
  oi: 0,
  volume: 7,
});

function recording(): Recording {
  const w = new RecordWriter(T0);
  w.quote('ltp', { token: 1, ltp: 100, close: 90 }, T0);
  w.quote('ltp', { token: 9, ltp: 5, close: 5 }, T0);
  w.quote('ltp', { token: 1, ltp: 100, close: 90 }, T0 + 1_000); // unchanged
  w.quote('ohlcv', ohlcv(105), T0 + 2_000);
  w.greeks(2, { iv: 0.2, delta: 0.5, gamma: 0, theta: 0, vega: 0 }, T0 + 2_000);
  w.quote('ohlcv', ohlcv(106), T0 + 3_000);
  return memoryRecording(w, { startMs: T0, endMs: T0 + 3_000, records: 6 });
}

describe('ReplayMarket', () => {
  it('pushes each record at its instant, projected down, changes only, as the bus would', async () => {
    const clock = new VirtualClock(T0);
    const market = new ReplayMarket(recording(), clock);
    const ltp: [number, number][] = [];
    const full: MarketQuote[] = [];
    market.quote$(1, 'ltp').subscribe((q) => ltp.push([q.receivedAt - T0, q.quote.ltp]));
    market.quote$(1, 'full').subscribe((q) => full.push(q));
    const greeks: number[] = [];
    market.greeks$([2]).subscribe((g) => greeks.push(g.greeks.delta));
    await market.play(T0 + 2_500);
    // The unchanged quote at +1 s stays quiet; the ohlcv record is projected to ltp.
    expect(ltp).toEqual([
      [0, 100],
      [2_000, 105],
    ]);
    expect(full).toEqual([]); // no record covers full
    expect(greeks).toEqual([0.5]);
    expect(clock.now()).toBe(T0 + 2_500);
    expect(market.events).toBe(5); // token 9 is decoded and counted, though nobody follows it
    expect(market.latest(1, 'ltp')?.quote).toEqual({ token: 1, ltp: 105, close: 90 });
    expect(market.latest(9, 'ltp')).toBeUndefined(); // as the bus: only followed tokens
    // A late subscriber of a lower mode is greeted from the richer channel's cache.
    const late: number[] = [];
    market.quote$(1, 'ohlcv').subscribe((q) => late.push(q.quote.ltp));
    await market.play(T0 + 3_000);
    expect(late).toEqual([106]);
    expect(ltp.at(-1)).toEqual([3_000, 106]);
    market.close();
  });

  it('fires timers between records in order, timers first at a shared instant, and lets promises settle before time moves', async () => {
    const clock = new VirtualClock(T0);
    const market = new ReplayMarket(recording(), clock);
    const seen: string[] = [];
    market.quote$(1, 'ltp').subscribe((q) => {
      seen.push(`quote ${q.quote.ltp} @${clock.now() - T0}`);
      // A continuation of a quote (a placement, say) runs before the next instant.
      void Promise.resolve().then(() => seen.push(`then @${clock.now() - T0}`));
      // So does the end of a long chain of them (a placement awaiting risk, journal, venue).
      void (async () => {
        for (let i = 0; i < 100; i++) await Promise.resolve();
        seen.push(`deep @${clock.now() - T0}`);
      })();
    });
    clock.scheduler.schedule(() => seen.push(`timer @${clock.now() - T0}`), 500);
    clock.scheduler.schedule(() => seen.push(`timer @${clock.now() - T0}`), 2_000);
    // A timer set from a continuation, due at once, still fires at its instant.
    void Promise.resolve().then(() =>
      clock.scheduler.schedule(() => seen.push(`chained @${clock.now() - T0}`), 0),
    );
    await market.play(T0 + 2_000);
    expect(seen).toEqual([
      'chained @0',
      'quote 100 @0',
      'then @0',
      'deep @0',
      'timer @500',
      'timer @2000',
      'quote 105 @2000',
      'then @2000',
      'deep @2000',
    ]);
  });

  it('resumes work waiting on a process.nextTick after an await one instant late, as docs/backtests.md says', async () => {
    // Review (final, F6): the drain queues the next instant with a process.nextTick, so a
    // continuation that itself waits for a tick (a library's "next tick" promise) runs
    // once the next instant is queued: at that instant, not at its own. Work meant for a
    // later instant belongs on the virtual clock's timers; a plain await still runs at
    // its own instant (the test above). Checked it can fail: with the drain taking an
    // event-loop turn (setImmediate) instead, the tick resumed at its own instant (@0).
    const clock = new VirtualClock(T0);
    const market = new ReplayMarket(recording(), clock);
    const seen: string[] = [];
    market.quote$(1, 'ltp').subscribe((q) => {
      seen.push(`quote ${q.quote.ltp} @${clock.now() - T0}`);
      void (async () => {
        await Promise.resolve();
        await new Promise<void>((resolve) => process.nextTick(resolve));
        seen.push(`after tick @${clock.now() - T0}`);
      })();
    });
    await market.play(T0 + 2_000);
    // The next instant after 0 is the quiet record at +1 s; after the last one, the play's end.
    expect(seen).toEqual([
      'quote 100 @0',
      'after tick @1000',
      'quote 105 @2000',
      'after tick @2000',
    ]);
  });

  it('samples state every interval without a step of its own, as a timer of that instant would see it', async () => {
    const clock = new VirtualClock(T0 - 2_500);
    const market = new ReplayMarket(recording(), clock);
    let ltp: number | undefined;
    market.quote$(1, 'ltp').subscribe((q) => {
      ltp = q.quote.ltp;
    });
    let marks = 0;
    clock.schedule(() => {
      marks += 1; // a timer at +2 s: the sample at +2 s is taken before it fires
    }, 4_500);
    const samples: Array<[number, number | undefined, number]> = [];
    const firsts: number[] = [];
    await market.play(T0 + 10_000, {
      sample: {
        everyMs: 500,
        take: (at, repeat) => {
          samples.push([at - T0, ltp, marks]);
          if (!repeat) firsts.push(at - T0);
        },
      },
    });
    expect(samples.map(([at]) => at)).toEqual(
      Array.from({ length: 25 }, (_, i) => -2_000 + i * 500),
    );
    // At +2 s (a record and a timer), the sample sees the state before both.
    expect(samples.find(([at]) => at === 2_000)).toEqual([2_000, 100, 0]);
    expect(samples.find(([at]) => at === 2_500)).toEqual([2_500, 105, 1]);
    // Four record instants (the timer shares one): four steps, none for the 25 samples.
    expect(market.steps).toBe(4);
    // Only the first sample after a step is not a repeat: the others saw nothing run.
    expect(firsts).toEqual([-2_000, 500, 1_500, 2_500, 3_500]);
  });

  it('starts a window inside the recording with the newest record of each kind and token before it', async () => {
    const clock = new VirtualClock(T0 + 2_500);
    const market = new ReplayMarket(recording(), clock);
    const ltp: [number, number][] = [];
    market.quote$(1, 'ltp').subscribe((q) => ltp.push([q.receivedAt - T0, q.quote.ltp]));
    await market.play(T0 + 3_000);
    // ltp@1 s then ohlcv@2 s (the older ltp@0 is skipped), all at the window's start.
    expect(ltp).toEqual([
      [2_500, 100],
      [2_500, 105],
      [3_000, 106],
    ]);
    expect(market.events).toBe(5); // ltp 9, ltp 1 @1 s, ohlcv @2 s, greeks, ohlcv @3 s
  });

  it('fails the replay with what a timer threw, and takes no step after it', async () => {
    const clock = new VirtualClock(T0);
    const market = new ReplayMarket(recording(), clock);
    clock.schedule(() => {
      throw new Error('timer broke');
    }, 1_500);
    await expect(market.play(T0 + 3_000)).rejects.toThrow('timer broke');
    expect(clock.now()).toBe(T0 + 1_500);
    expect(market.steps).toBe(3); // +0, +1 s, and the timer's own at +1.5 s
  });

  it('completes its streams on close', () => {
    const market = new ReplayMarket(recording(), new VirtualClock(T0));
    let done = 0;
    market.quote$(1, 'ltp').subscribe({ complete: () => done++ });
    market.health$.subscribe({ complete: () => done++ });
    market.close();
    expect(done).toBe(2);
    expect(market.status).toBe('ok');
  });
});
