import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { RefreshSchedule } from './refresh-schedule.ts';

const ms = (iso: string): number => Date.parse(iso);
const lastAt = (refreshAt: readonly string[], now: string): string =>
  new Date(new RefreshSchedule(new VirtualClock(0), refreshAt).lastAt(ms(now))).toISOString();

// How I checked these can fail: with `lastAt` looking at today only, the two cases
// before the day's first time fail.
describe('RefreshSchedule.lastAt: the latest refetch time at or before now (IST)', () => {
  it.each([
    [['00:01', '08:00'], '2026-11-20T10:00:00+05:30', '2026-11-20T02:30:00.000Z'],
    [['00:01', '08:00'], '2026-11-20T08:00:00+05:30', '2026-11-20T02:30:00.000Z'],
    [['00:01', '08:00'], '2026-11-20T07:59:59+05:30', '2026-11-19T18:31:00.000Z'],
    [['08:00', '00:01'], '2026-11-20T09:00:00+05:30', '2026-11-20T02:30:00.000Z'],
    // Before today's first time: yesterday's last.
    [['00:01', '08:00'], '2026-11-20T00:00:30+05:30', '2026-11-19T02:30:00.000Z'],
    [['23:30'], '2026-01-01T00:10:00+05:30', '2025-12-31T18:00:00.000Z'],
    [['09:00'], '2026-11-20T09:00:00+05:30', '2026-11-20T03:30:00.000Z'],
  ])('%j at %s: %s', (times, now, expected) => {
    expect(lastAt(times, now)).toBe(expected);
  });
});
