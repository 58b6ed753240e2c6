import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { DAY_MS } from '../domain/ist.ts';
import type { MarketQuote } from '../market-data/market-quote.ts';
import { openRecordings } from '../recording/recording-set.ts';
import { shiftRecording } from '../recording/shift-recording.ts';
import { writeRecordingDir } from '../recording/testing/write-recording-dir.ts';
import { ReplayMarket } from './replay-market.ts';

/** Friday 20 November 2026, 09:15 IST; Monday is 3 days on, Wednesday 5 (Tuesday a holiday). */
const FRI = Date.parse('2026-11-20T09:15:00+05:30');
const DAYS = [0, 3, 5];
const COUNT = 8_000;
const STEP = 2_000;

async function week(): Promise<string> {
  const parent = mkdtempSync(join(tmpdir(), 'tr-replay-week-'));
  // 8 000 records (160 KB) a day: each day's file is read in several 64 KiB blocks, and
  // the days are separate files streamed one after the other.
  await writeRecordingDir(join(parent, 'd0'), {
    startMs: FRI,
    count: COUNT,
    stepMs: STEP,
    firstLtp: 1_000,
  });
  for (const d of DAYS.slice(1)) {
    await shiftRecording(join(parent, 'd0'), join(parent, `d${d}`), d * DAY_MS);
  }
  return parent;
}

describe('ReplayMarket on streamed recordings', () => {
  it('replays several days in time order, at their instants, across the weekend and a holiday', async () => {
    const set = await openRecordings(await week());
    const clock = new VirtualClock(set.meta.startMs);
    const market = new ReplayMarket(set, clock);
    const got: { at: number; now: number; ltp: number }[] = [];
    // Each quote differs from the one before, so each is published.
    market
      .quote$(1, 'ltp')
      .subscribe((q: MarketQuote<'ltp'>) =>
        got.push({ at: q.receivedAt, now: clock.now(), ltp: q.quote.ltp }),
      );
    await market.play(set.meta.endMs);
    const want = DAYS.flatMap((d) =>
      Array.from({ length: COUNT }, (_, i) => ({
        at: FRI + d * DAY_MS + i * STEP,
        ltp: 1_000 + i,
      })),
    );
    expect(got.map(({ at, ltp }) => ({ at, ltp }))).toEqual(want);
    // Published when the clock stood at the recorded instant, never before or after.
    expect(got.every((g) => g.now === g.at)).toBe(true);
    expect(market.events).toBe(3 * COUNT);
    expect(clock.now()).toBe(set.meta.endMs);
    market.close();
  });

  it("a window starting on Monday first gets Friday's last quote, then Monday's as they come", async () => {
    const set = await openRecordings(await week());
    const monday = FRI + 3 * DAY_MS;
    const clock = new VirtualClock(monday - 60 * 60_000);
    const market = new ReplayMarket(set, clock);
    const got: [number, number][] = [];
    market.quote$(1, 'ltp').subscribe((q) => got.push([q.receivedAt, q.quote.ltp]));
    await market.play(monday + STEP);
    expect(got).toEqual([
      [monday - 60 * 60_000, 1_000 + COUNT - 1],
      [monday, 1_000],
      [monday + STEP, 1_001],
    ]);
    market.close();
  });
});
