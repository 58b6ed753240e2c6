import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { IST_OFFSET_MINUTES, IST_ZONE, istDayStart, toIstIso } from './ist.ts';

describe('IST helpers', () => {
  // Intl may name the zone Asia/Calcutta; what must hold is the offset.
  it.each([
    '1970-01-01T00:00:00Z',
    '2026-06-15T12:00:00Z',
    '2026-12-31T18:30:00Z',
    '2040-03-10T02:00:00Z',
  ])('Asia/Kolkata is +05:30 at %s', (iso) => {
    expect(DateTime.fromISO(iso, { zone: IST_ZONE }).offset).toBe(IST_OFFSET_MINUTES);
    expect(DateTime.fromISO(iso, { zone: 'Asia/Calcutta' }).offset).toBe(IST_OFFSET_MINUTES);
    expect(toIstIso(Date.parse(iso)).endsWith('+05:30')).toBe(true);
  });

  it.each([
    { at: '2026-12-31T18:29:59.999Z', date: '2026-12-31' },
    { at: '2026-12-31T18:30:00Z', date: '2027-01-01' },
    { at: '1969-12-31T18:30:00Z', date: '1970-01-01' },
    { at: '1969-12-31T18:29:59Z', date: '1969-12-31' },
  ])('$at falls on IST date $date', ({ at, date }) => {
    expect(toIstIso(istDayStart(Date.parse(at))).slice(0, 10)).toBe(date);
    expect(toIstIso(istDayStart(Date.parse(at))).slice(10, 23)).toBe('T00:00:00.000');
  });
});
