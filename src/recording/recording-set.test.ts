import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../domain/ist.ts';
import { RecordingError } from './recording-error.ts';
import { openRecordings } from './recording-set.ts';
import { shiftRecording } from './shift-recording.ts';
import { writeRecordingDir } from './testing/write-recording-dir.ts';

/** Friday 20 November 2026, 09:15 IST. */
const FRI = Date.parse('2026-11-20T09:15:00+05:30');

/** Friday's recording, and copies on Monday and (Tuesday a holiday) Wednesday. */
async function week(): Promise<string> {
  const parent = mkdtempSync(join(tmpdir(), 'tr-week-'));
  // Names sort apart from time: the set must order by the recordings' start.
  await writeRecordingDir(join(parent, 'b-fri'), {
    startMs: FRI,
    count: 5,
    stepMs: 60_000,
    firstLtp: 100,
  });
  await shiftRecording(join(parent, 'b-fri'), join(parent, 'a-wed'), 5 * DAY_MS);
  await shiftRecording(join(parent, 'b-fri'), join(parent, 'c-mon'), 3 * DAY_MS);
  return parent;
}

describe('openRecordings', () => {
  it('reads a folder of days as one recording, in time order across the weekend and a holiday', async () => {
    const parent = await week();
    const set = await openRecordings(parent);
    expect(set.parts.map((p) => p.dir.slice(parent.length + 1))).toEqual([
      'b-fri',
      'c-mon',
      'a-wed',
    ]);
    expect(set.meta.startMs).toBe(FRI);
    expect(set.meta.endMs).toBe(FRI + 5 * DAY_MS + 4 * 60_000);
    expect(set.meta.records).toBe(15);
    expect(set.meta.holidays?.holidays['24-11-2026']).toBeDefined();
    expect(set.meta.chainSymbols.map((c) => c.at)).toEqual([
      FRI,
      FRI + 3 * DAY_MS,
      FRI + 5 * DAY_MS,
    ]);
    const seen: [number, number][] = [];
    for await (const block of set.blocks())
      while (block.next()) seen.push([block.time, block.ltp()]);
    const day = (d: number) =>
      [0, 1, 2, 3, 4].map((i): [number, number] => [FRI + d * DAY_MS + i * 60_000, 100 + i]);
    expect(seen).toEqual([...day(0), ...day(3), ...day(5)]);
  });

  it('refuses recordings that overlap in time', async () => {
    const parent = await week();
    await shiftRecording(join(parent, 'b-fri'), join(parent, 'd-fri-later'), 2 * 60_000);
    const refusal = await openRecordings(parent).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(RecordingError);
    expect((refusal as RecordingError).problem).toBe('overlap');
  });

  it('refuses a folder that holds no recording', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'tr-empty-'));
    await expect(openRecordings(empty)).rejects.toThrow(/no meta\.json/);
  });
});
