import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RefusedError } from '../../api/errors/refused-error.ts';
import { DEFAULT_INSTRUMENT_MASTER_FORMAT } from '../../api/instrument-master-csv.ts';
import { VirtualClock } from '../../clock/virtual-clock.ts';
import { InstrumentMasterStore } from './instrument-master-store.ts';

const HEADER = 'Exchange,Token,Symbol,LotSize,TickSize';
const DAY1 = `${HEADER}\nNSE,3045,SBIN-EQ,1,5\n`;
const DAY2 = `${HEADER}\nNSE,3045,SBIN-EQ,1,5\nNSE,1594,INFY-EQ,1,5\n`;
/** 23:50 IST on Monday 5 Jan 2026. */
const MON_2350_IST = Date.parse('2026-01-05T18:20:00Z');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'master-store-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Logged {
  level: string;
  msg: string;
}

const LIVE = 'a1b2c3d4e5f6';
const file = (day: string, source = LIVE) => `instruments-${source}-${day}.csv`;

function storeOver(
  clock: VirtualClock,
  answers: Array<string | Error>,
  source = LIVE,
  cacheDir: string | null = dir,
) {
  const logs: Logged[] = [];
  let fetches = 0;
  const log = (level: string) => (_obj: unknown, msg?: string) =>
    logs.push({ level, msg: msg ?? '' });
  const store = new InstrumentMasterStore({
    clock,
    fetchCsv: async () => {
      const answer = answers[Math.min(fetches, answers.length - 1)] ?? new Error('none');
      fetches += 1;
      if (answer instanceof Error) throw answer;
      return answer;
    },
    format: DEFAULT_INSTRUMENT_MASTER_FORMAT,
    cacheDir: cacheDir ?? undefined,
    source,
    logger: { info: log('info'), warn: log('warn'), error: log('error') } as never,
  });
  return { store, logs, fetches: () => fetches };
}

const notFound = () =>
  new RefusedError('instrumentMaster: refused by the service (HTTP 404 NotFoundError): No route', {
    operation: 'instrumentMaster',
    status: 404,
    errorCode: 'NotFoundError',
    serviceMessage: 'No route',
  });

describe('InstrumentMasterStore', () => {
  it('fetches once per IST day: a restart the same day reads the cache, the next day fetches anew', async () => {
    const clock = new VirtualClock(MON_2350_IST);
    const first = storeOver(clock, [DAY1]);
    expect(await first.store.load()).toMatchObject({
      origin: 'service',
      day: '2026-01-05',
      instruments: 1,
    });
    expect(await readdir(dir)).toEqual([file('2026-01-05')]);

    // A restart at 23:59 IST the same day: no request.
    clock.advanceBy(9 * 60_000);
    const restart = storeOver(clock, [new Error('must not be asked')]);
    expect(await restart.store.load()).toMatchObject({ origin: 'cache', day: '2026-01-05' });
    expect(restart.fetches()).toBe(0);
    expect(restart.store.lookup({ exchange: 'NSE', symbol: 'sbin-eq' })?.token).toBe(3045);

    // 00:01 IST the next day (18:31 UTC, still the 5th in UTC): a new day's master.
    clock.advanceBy(2 * 60_000);
    const nextDay = storeOver(clock, [DAY2]);
    expect(await nextDay.store.load()).toMatchObject({
      origin: 'service',
      day: '2026-01-06',
      instruments: 2,
    });
    expect(nextDay.fetches()).toBe(1);
    expect(await readdir(dir)).toEqual([file('2026-01-06')]);
    expect(await readFile(join(dir, file('2026-01-06')), 'utf8')).toBe(DAY2);
  });

  it('reloads in the background on the first lookup of a new day; the old master answers meanwhile', async () => {
    const clock = new VirtualClock(MON_2350_IST);
    const { store, fetches } = storeOver(clock, [DAY1, DAY2]);
    await store.load();
    expect(store.byToken(1594)).toBeUndefined();
    // 00:01 IST: this lookup starts the reload, and the next one still sees yesterday's master.
    clock.advanceBy(11 * 60_000);
    expect(store.byToken(1594)).toBeUndefined();
    expect(store.byToken(1594)).toBeUndefined();
    await store.load();
    expect(fetches()).toBe(2);
    expect(store.byToken(1594)?.symbol).toBe('INFY-EQ');
    expect(store.status.day).toBe('2026-01-06');
  });

  it('ignores a corrupt cache with a warning and fetches again', async () => {
    const clock = new VirtualClock(MON_2350_IST);
    await writeFile(join(dir, file('2026-01-05')), 'garbage,"\n');
    const { store, logs, fetches } = storeOver(clock, [DAY1]);
    expect(await store.load()).toMatchObject({ origin: 'service', instruments: 1 });
    expect(fetches()).toBe(1);
    expect(logs).toContainEqual({
      level: 'warn',
      msg: 'instrument master: cached copy is unreadable; ignored, fetching again',
    });
  });

  it("on a 404 falls back to an earlier day's copy, else misses every lookup and says why", async () => {
    const clock = new VirtualClock(MON_2350_IST);
    const none = storeOver(clock, [notFound()]);
    const status = await none.store.load();
    expect(status).toMatchObject({ origin: 'none', instruments: 0 });
    expect(status.problem).toContain('HTTP 404');
    expect(none.store.byToken(3045)).toBeUndefined();
    expect(none.logs.map((l) => l.level)).toContain('error');

    await writeFile(join(dir, file('2026-01-02')), DAY1);
    const stale = storeOver(clock, [notFound()]);
    expect(await stale.store.load()).toMatchObject({ origin: 'stale-cache', day: '2026-01-02' });
    expect(stale.store.byToken(3045)?.symbol).toBe('SBIN-EQ');
  });

  it("never reads another source's copy: the simulator's master is not the service's, today or as a fallback", async () => {
    const clock = new VirtualClock(MON_2350_IST);
    const SIM = `${HEADER}\nNSE,9999,SBIN-EQ,7,10\n`;
    // Paper on the simulator caches today's and an earlier day's copy in the shared state folder.
    const paper = storeOver(clock, [SIM], 'embedded');
    expect(await paper.store.load()).toMatchObject({ origin: 'service' });
    await writeFile(join(dir, file('2026-01-02', 'embedded')), SIM);

    // A live start the same day asks its own service and keeps both sources' copies.
    const live = storeOver(clock, [DAY1]);
    expect(await live.store.load()).toMatchObject({ origin: 'service' });
    expect(live.fetches()).toBe(1);
    expect(live.store.lookup({ exchange: 'NSE', symbol: 'SBIN-EQ' })?.token).toBe(3045);
    expect((await readdir(dir)).sort()).toEqual(
      [file('2026-01-02', 'embedded'), file('2026-01-05', 'embedded'), file('2026-01-05')].sort(),
    );

    // The next day the service is down: no copy of the simulator's stands in for it.
    await rm(join(dir, file('2026-01-05')));
    clock.advanceBy(11 * 60_000);
    const down = storeOver(clock, [notFound()]);
    expect(await down.store.load()).toMatchObject({ origin: 'none', instruments: 0 });
    expect(down.store.byToken(9999)).toBeUndefined();
    // Nor the reverse: the simulator's own copy is what paper falls back to.
    const paperDown = storeOver(clock, [notFound()], 'embedded');
    expect(await paperDown.store.load()).toMatchObject({
      origin: 'stale-cache',
      day: '2026-01-05',
    });
  });

  it('keeps the working master when a reload fails, and tries again on a lookup 10 minutes later', async () => {
    const clock = new VirtualClock(MON_2350_IST);
    const { store, fetches } = storeOver(
      clock,
      [DAY1, new Error('service down'), DAY2],
      LIVE,
      null,
    );
    await store.load();
    // 00:10 IST: the first lookup of the day starts a reload, which fails.
    clock.advanceBy(20 * 60_000);
    expect(store.byToken(3045)?.symbol).toBe('SBIN-EQ');
    const failed = await store.load();
    expect(fetches()).toBe(2);
    expect(failed).toMatchObject({ origin: 'service', day: '2026-01-05', instruments: 1 });
    expect(failed.problem).toBe('service down');
    expect(store.byToken(3045)?.symbol).toBe('SBIN-EQ');
    // Not on every lookup: 9 minutes on, still no new request.
    clock.advanceBy(9 * 60_000);
    expect(store.byToken(3045)?.symbol).toBe('SBIN-EQ');
    await Promise.resolve();
    expect(fetches()).toBe(2);
    // 10 minutes after the failure, a lookup tries again.
    clock.advanceBy(60_000);
    store.byToken(3045);
    await store.load();
    expect(fetches()).toBe(3);
    expect(store.status).toMatchObject({ origin: 'service', day: '2026-01-06', instruments: 2 });
    expect(store.byToken(1594)?.symbol).toBe('INFY-EQ');
  });

  it('says why a master gave no instrument: the first skipped rows and the other exchanges', async () => {
    const clock = new VirtualClock(MON_2350_IST);
    const rupeeTicks = `${HEADER}\nNSE,3045,SBIN-EQ,1,0.05\nNSE,2885,RELIANCE-EQ,1,0.05\nMCX,1,GOLD,1,100\n`;
    const { store } = storeOver(clock, [rupeeTicks]);
    const status = await store.load();
    expect(status).toMatchObject({ origin: 'none', instruments: 0 });
    expect(status.problem).toMatch(
      /^the master lists no instruments: 2 rows skipped \(line 2: .+; line 3: .+\), 1 rows of other exchanges$/,
    );
    expect(status.problem).toContain('0.05');
  });
});
