import { describe, expect, it } from 'vitest';
import { chartResolution } from './chart-resolution.ts';

const HOUR = 3_600_000;
/** 2001 samples an hour apart: more bars than a chart holds at every step up to 1 h. */
const hourly = (from: number): number[] => Array.from({ length: 2_001 }, (_, i) => from + i * HOUR);

describe('chartResolution', () => {
  it('draws daily bars, each starting 09:15 IST on the IST date of its samples', () => {
    const r = chartResolution(hourly(Date.parse('2026-01-01T00:00:00+05:30')));
    expect(r.label).toBe('1d');
    expect(r.bucket(Date.parse('2026-11-20T15:29:00+05:30'))).toBe(
      Date.parse('2026-11-20T09:15:00+05:30'),
    );
    // 00:10 IST is still the new IST date, though UTC's date is the day before.
    expect(r.bucket(Date.parse('2026-11-21T00:10:00+05:30'))).toBe(
      Date.parse('2026-11-21T09:15:00+05:30'),
    );
  });

  it('buckets an instant before 1970 on its own IST date, not the next one', () => {
    // Epoch ms below zero: a remainder taken by hand goes negative and lands a day late.
    const r = chartResolution(hourly(Date.parse('1969-06-01T00:00:00+05:30')));
    expect(r.label).toBe('1d');
    expect(r.bucket(Date.parse('1969-12-31T10:30:00+05:30'))).toBe(
      Date.parse('1969-12-31T09:15:00+05:30'),
    );
  });

  it('keeps hourly bars at 09:15, 10:15, … IST when they fit', () => {
    // 4,000 samples 15 minutes apart: too many bars at 15 m, 1,000 at 1 h.
    const from = Date.parse('2026-11-20T09:15:00+05:30');
    const r = chartResolution(Array.from({ length: 4_000 }, (_, i) => from + i * 900_000));
    expect(r.label).toBe('1h');
    expect(r.bucket(Date.parse('2026-11-20T10:59:00+05:30'))).toBe(
      Date.parse('2026-11-20T10:15:00+05:30'),
    );
  });
});
