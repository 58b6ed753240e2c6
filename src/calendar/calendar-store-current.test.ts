import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Holidays } from '../api/schemas/utilities.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { CalendarFile } from './calendar-file.ts';
import { CalendarStore } from './calendar-store.ts';
import type { CalendarStoreOptions } from './calendar-store-options.ts';

// A restart on a stored copy this service stored since the latest daily refetch time
// starts on it without asking the service (as a store that had kept running would); an
// older copy, one from another service, one from a clock far ahead, or `fetchAtStart:
// 'always'` fetches at start. A copy another service stored is not even the fallback
// when this one does not answer.
// How I checked these can fail: with `storedIsCurrent()` always false (the old start),
// the current cases count a fetch; with it ignoring `lastAt`, the source (the copy that
// records none) or the clock ahead, the matching stale case counts none; with
// `loadStored` installing any copy, the unreachable case starts on the simulator's.

const y2026: Holidays = {
  holidays: { '25-12-2026': 'Christmas' },
  specialTradingDays: {},
};
const ms = (iso: string): number => Date.parse(iso);
const SERVICE = 'https://api.example.test';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiqs-calendar-current-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Fetches (and stores) at `fetchedAt`, then starts again at `restartAt`; the second start's fetches. */
async function restart(
  fetchedAt: string,
  restartAt: string,
  options: Partial<CalendarStoreOptions> = {},
  firstFrom = SERVICE,
): Promise<{ fetches: number; source: string | undefined }> {
  const path = join(dir, 'holidays.json');
  const first = new CalendarStore({
    clock: new VirtualClock(ms(fetchedAt)),
    fetchHolidays: async () => y2026,
    path,
    sourceId: firstFrom,
  });
  await first.start();
  first.stop();
  let fetches = 0;
  const store = new CalendarStore({
    clock: new VirtualClock(ms(restartAt)),
    fetchHolidays: async () => {
      fetches += 1;
      return y2026;
    },
    path,
    sourceId: SERVICE,
    ...options,
  });
  const status = await store.start();
  store.stop();
  return { fetches, source: status.state === 'ready' ? status.source : undefined };
}

/** A copy as a store saves it: `data` fetched at `fetchedAt` from `source`. Returns its path. */
async function stored(
  fetchedAt: string,
  source: string | undefined,
  data = y2026,
): Promise<string> {
  const path = join(dir, 'holidays.json');
  await new CalendarFile(path).save(data, ms(fetchedAt), source);
  return path;
}

/** This service's store on `path`, restarted at 10:00 on the copy's day. */
function storeAt(
  path: string,
  fetchHolidays: CalendarStoreOptions['fetchHolidays'],
  options: Partial<CalendarStoreOptions> = {},
): CalendarStore {
  const clock = new VirtualClock(ms('2026-11-20T10:00:00+05:30'));
  return new CalendarStore({ clock, fetchHolidays, path, sourceId: SERVICE, ...options });
}

/** A service that does not answer. */
const unreachable = async (): Promise<Holidays> => {
  throw new Error('connect ECONNREFUSED');
};

describe('CalendarStore at start, on a stored copy', () => {
  it('fetched since the latest refetch time (08:00): starts on it without a fetch', async () => {
    expect(await restart('2026-11-20T08:05:00+05:30', '2026-11-20T10:00:00+05:30')).toEqual({
      fetches: 0,
      source: 'disk',
    });
  });

  it.each([
    ['before the 08:00 refetch of today', '2026-11-20T07:59:00+05:30', '2026-11-20T10:00:00+05:30'],
    ['the day before', '2026-11-19T20:00:00+05:30', '2026-11-20T00:30:00+05:30'],
    [
      'before the 00:01 refetch of a new year',
      '2025-12-31T23:30:00+05:30',
      '2026-01-01T00:05:00+05:30',
    ],
  ])('fetched %s: fetches at start', async (_what, fetchedAt, restartAt) => {
    expect(await restart(fetchedAt, restartAt)).toEqual({ fetches: 1, source: 'service' });
  });

  it('a few seconds ahead of this clock (a restarted simulator): starts on it', async () => {
    expect(await restart('2026-11-20T10:00:05+05:30', '2026-11-20T10:00:00+05:30')).toEqual({
      fetches: 0,
      source: 'disk',
    });
  });

  it('weeks ahead of this clock (a fast simulator left running): fetches at start', async () => {
    expect(await restart('2026-12-20T10:00:00+05:30', '2026-11-20T10:00:00+05:30')).toEqual({
      fetches: 1,
      source: 'service',
    });
  });

  it('stored by another service (the embedded simulator): fetches at start', async () => {
    expect(
      await restart(
        '2026-11-20T08:05:00+05:30',
        '2026-11-20T10:00:00+05:30',
        {},
        'embedded simulator',
      ),
    ).toEqual({ fetches: 1, source: 'service' });
  });

  it('stored by another service, this one unreachable at start: no calendar rather than that copy', async () => {
    const path = await stored('2026-11-20T09:00:00+05:30', 'embedded');
    const warnings: string[] = [];
    const live = storeAt(path, unreachable, {
      logger: { info: () => {}, warn: (_d, m) => warnings.push(m), error: () => {} },
    });
    const status = await live.start();
    live.stop();
    expect(live.calendar).toBeUndefined();
    expect(status).toMatchObject({ state: 'unavailable' });
    expect(JSON.stringify(status)).toContain('came from another service (embedded)');
    expect(warnings).toContain(
      'stored calendar came from another service: not used (the next fetch replaces it)',
    );
  });

  it('stored with a base URL as its source (files of 24 November): the URL is not repeated', async () => {
    const path = await stored('2026-11-20T09:00:00+05:30', 'https://u:pw@sim.test');
    const said: string[] = [];
    const live = storeAt(path, unreachable, {
      logger: {
        info: () => {},
        warn: (d, m) => said.push(m, JSON.stringify(d)),
        error: (d, m) => said.push(m, JSON.stringify(d)),
      },
    });
    const status = await live.start();
    live.stop();
    expect(live.calendar).toBeUndefined();
    expect(JSON.stringify(status)).toContain('came from another service (not shown)');
    expect([...said, JSON.stringify(status)].join(' ')).not.toContain('pw@');
  });

  it('stored before the source was recorded (older versions): not current, fetches at start', async () => {
    const path = await stored('2026-11-20T08:05:00+05:30', undefined);
    let fetches = 0;
    const live = storeAt(path, async () => {
      fetches += 1;
      return y2026;
    });
    expect(await live.start()).toMatchObject({ state: 'ready', source: 'service' });
    live.stop();
    expect(fetches).toBe(1);
  });

  it('stored before the source was recorded (older versions): still the fallback', async () => {
    const path = await stored('2026-11-20T09:00:00+05:30', undefined);
    expect(JSON.parse(await readFile(path, 'utf8')).source).toBeUndefined();
    const live = storeAt(path, unreachable);
    expect(await live.start()).toMatchObject({ state: 'ready', source: 'disk' });
    live.stop();
  });

  it("after another service's copy (a simulator's 2027), saves this one's years alone", async () => {
    const path = await stored('2026-11-20T09:00:00+05:30', 'embedded simulator', {
      holidays: { ...y2026.holidays, '26-01-2027': 'Republic Day' },
      specialTradingDays: {},
    });
    const live = storeAt(path, async () => y2026);
    await live.start();
    live.stop();
    expect(live.status()).toMatchObject({ state: 'ready', source: 'service', years: [2026] });
    const saved = JSON.parse(await readFile(path, 'utf8'));
    expect(saved).toMatchObject({ source: SERVICE, data: y2026 });
  });

  it("with fetchAtStart: 'always', fetches even on a current copy", async () => {
    expect(
      await restart('2026-11-20T08:05:00+05:30', '2026-11-20T10:00:00+05:30', {
        fetchAtStart: 'always',
      }),
    ).toEqual({ fetches: 1, source: 'service' });
  });
});
