import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { type CandleRequest, candleCall } from '../api/candle-request.ts';
import { DEFAULT_INSTRUMENT_MASTER_FORMAT } from '../api/instrument-master-csv.ts';
import { readCandleRows } from '../api/schemas/candle.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { serveCandles } from '../sim/http/candle-route.ts';
import { instrumentMasterFile } from '../sim/market/instrument-master-file.ts';
import { SimExchange } from '../sim/sim-exchange.ts';
import { CandleDownloadError } from './candle-download-error.ts';
import { candleRows } from './candle-recording-reader.ts';
import { type CandleDownloadClient, downloadCandles } from './download-candles.ts';

const NOW = Date.parse('2026-11-20T10:00:00+05:30');

/** The simulator's answers in process, counting candle requests; `failOn` fails one chunk. */
function simClient(failOn?: (r: CandleRequest) => boolean) {
  const ex = new SimExchange({ clock: new VirtualClock(NOW), seed: 3 });
  const asked: CandleRequest[] = [];
  const client: CandleDownloadClient = {
    instrumentMaster: async () => instrumentMasterFile(ex.market.universe),
    holidays: async () => ex.holidays(),
    candles: async (r) => {
      if (failOn?.(r)) throw new Error('HTTP 503 after 3 retries');
      asked.push(r);
      const path = candleCall(r).path;
      const [, , exch, token, interval] = path.split('?')[0]?.split('/') ?? [];
      const body = serveCandles(ex, [exch ?? '', token ?? '', interval ?? ''], path).body;
      return readCandleRows('candles', body) ?? [];
    },
  };
  return { client, asked };
}

let out: string;
beforeEach(async () => {
  out = join(await mkdtemp(join(tmpdir(), 'dl-')), 'rec');
});

const base = {
  tokens: [3045, 26000],
  interval: '1m' as const,
  from: '2025-01-01',
  to: '2025-03-31',
  source: 'simulator' as const,
  masterFormat: DEFAULT_INSTRUMENT_MASTER_FORMAT,
  now: NOW,
};

async function count(token: number): Promise<number> {
  let n = 0;
  for await (const _ of candleRows(out, token)) n += 1;
  return n;
}

describe('downloadCandles', () => {
  it('fetches each token chunk once, a month per request, with progress', async () => {
    const { client, asked } = simClient();
    const progress: string[] = [];
    const r = await downloadCandles({
      ...base,
      client,
      out,
      onProgress: (d, t) => progress.push(`${d}/${t}`),
    });
    expect([r.fetched, r.kept]).toEqual([6, 0]);
    expect(asked).toHaveLength(6);
    expect(progress).toEqual(['1/6', '2/6', '3/6', '4/6', '5/6', '6/6']);
    expect(await readdir(join(out, 'candles/3045'))).toEqual([
      '2025-01-01_2025-01-31.csv',
      '2025-02-01_2025-02-28.csv',
      '2025-03-01_2025-03-31.csv',
    ]);
    // Q1 2025 in the sim calendar: 62 trading days (Holi, Ram Navami, Mahavir Jayanti off;
    // the Budget Saturday on) of 375 minutes.
    expect(await count(3045)).toBe(62 * 375);
    expect(r.meta.bars).toBe(2 * 62 * 375);
    expect(r.meta).toMatchObject({
      complete: true,
      source: 'simulator',
      from: '2025-01-01',
      to: '2025-03-31',
    });
    expect(r.meta.instruments.map((i) => [i.token, i.exchange, i.symbol])).toEqual([
      [3045, 'NSE', 'SBIN-EQ'],
      [26000, 'NSE', 'NIFTY'],
    ]);
    expect(r.meta.holidays?.holidays['03-03-2025']).toBe('no bars (derived)');
    expect((await readFile(join(out, 'instruments.csv'), 'utf8')).trim().split('\n')).toHaveLength(
      3,
    );
  });

  it('resumes after a failed chunk: what was saved stays, only the missing chunks are fetched', async () => {
    const failing = simClient(
      (r) => r.token === 26000 && r.from >= Date.parse('2025-02-01T00:00:00+05:30'),
    );
    const err = await downloadCandles({ ...base, client: failing.client, out }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CandleDownloadError);
    expect((err as CandleDownloadError).problem).toBe('chunk-failed');
    expect((err as Error).message).toMatch(/token 26000 chunk 2025-02-01..2025-02-28: HTTP 503/);
    expect(failing.asked).toHaveLength(3);
    const again = simClient();
    const r = await downloadCandles({ ...base, client: again.client, out });
    expect([r.fetched, r.kept]).toEqual([3, 3]);
    expect(again.asked.map((a) => a.token)).toEqual([26000, 3045, 26000]);
    // The same as one uninterrupted download.
    const whole = join(await mkdtemp(join(tmpdir(), 'dl-')), 'rec');
    await downloadCandles({ ...base, client: simClient().client, out: whole });
    for (const name of ['2025-02-01_2025-02-28.csv', '2025-01-01_2025-01-31.csv']) {
      expect(await readFile(join(out, 'candles/26000', name), 'utf8')).toBe(
        await readFile(join(whole, 'candles/26000', name), 'utf8'),
      );
    }
  });

  it('stamps day bars at their session open, not the endpoint 00:00 (a candle replay skips bars outside sessions)', async () => {
    const { client, asked } = simClient();
    const r = await downloadCandles({
      ...base,
      interval: '1d',
      from: '2025-01-30',
      to: '2025-02-03',
      client,
      out,
    });
    expect(asked).toHaveLength(2);
    const starts = [];
    for await (const c of candleRows(out, 3045))
      starts.push(new Date(c.start + 19_800_000).toISOString().slice(0, 16));
    // Sat 1 Feb 2025 is the simulator's Budget session (09:15 too); Sun 2 Feb has none.
    expect(starts).toEqual([
      '2025-01-30T09:15',
      '2025-01-31T09:15',
      '2025-02-01T09:15',
      '2025-02-03T09:15',
    ]);
    expect(r.meta.bars).toBe(8);
  });

  it('refuses to resume with another chunking, changing nothing', async () => {
    await downloadCandles({ ...base, client: simClient().client, out });
    const before = await readFile(join(out, 'meta.json'), 'utf8');
    const { client, asked } = simClient();
    await expect(downloadCandles({ ...base, chunkDays: 7, client, out })).rejects.toThrow(
      /holds chunk 3045\/2025-01-01_2025-01-31\.csv, which this download would not write/,
    );
    expect(asked).toEqual([]);
    expect(await readFile(join(out, 'meta.json'), 'utf8')).toBe(before);
  });

  it('names unknown tokens and refuses a range reaching the source today, writing nothing', async () => {
    const { client } = simClient();
    await expect(
      downloadCandles({ ...base, tokens: [3045, 999, 998], client, out }),
    ).rejects.toThrow('the instrument master lists no token 999, 998');
    await expect(downloadCandles({ ...base, to: '2026-11-20', client, out })).rejects.toMatchObject(
      {
        problem: 'bad-range',
      },
    );
    await expect(readdir(out)).rejects.toThrow();
  });

  it('names a failed holiday list (GET /info/holidays) as CandleDownloadError no-holidays', async () => {
    const { client } = simClient();
    const failing = {
      ...client,
      holidays: async () => {
        throw new Error('HTTP 404');
      },
    };
    await expect(downloadCandles({ ...base, client: failing, out })).rejects.toMatchObject({
      name: 'CandleDownloadError',
      problem: 'no-holidays',
    });
  });

  it('stops between chunks when interrupted, every chunk written whole', async () => {
    const { client } = simClient();
    const interrupt = new AbortController();
    const run = downloadCandles({
      ...base,
      client,
      out,
      signal: interrupt.signal,
      onProgress: (done) => {
        if (done === 2) interrupt.abort('SIGINT');
      },
    });
    await expect(run).rejects.toBe('SIGINT');
    expect(await readdir(join(out, 'candles', '3045'))).toHaveLength(1);
    // A one-token download records its bar count in barsByToken.
    const done = await downloadCandles({
      ...base,
      tokens: [3045],
      to: '2025-01-31',
      client,
      out: `${out}-2`,
    });
    expect(done.meta.barsByToken?.['3045']).toBeGreaterThan(0);
  });
});
