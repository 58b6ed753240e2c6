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

  it('toIstIso prints what luxon prints in Asia/Kolkata, its history before 1946 included', () => {
    const edges = ['1945-12-31T18:29:59.999Z', '1945-12-31T18:30:00Z', '1942-09-01T00:00:00Z'];
    const instants = [...edges.map(Date.parse), 0, -1, 1.5, Number.NaN, 253402280999999];
    // A fixed spread of instants from the year 1000 to 11000 (no randomness).
    for (let i = 0; i < 2000; i++) instants.push(-3e13 + i * 1.7e11 + (i % 7) * 123_457);
    for (const ms of instants) {
      const luxon = DateTime.fromMillis(ms, { zone: IST_ZONE }).toISO() ?? String(ms);
      expect(toIstIso(ms), String(ms)).toBe(luxon);
    }
  });
});
