import type { EndpointInterval } from '../api/candle-request.ts';
import type { InstrumentMasterFormat } from '../api/instrument-master-csv.ts';
import type { CandleRow } from '../api/schemas/candle.ts';
import type { Holidays } from '../api/schemas/utilities.ts';
import type { TiqsClient } from '../api/tiqs-client.ts';
import { mergeHolidays } from '../calendar/merge-holidays.ts';
import { CANDLE_INTERVAL_MS, type CandleInterval } from '../domain/candle.ts';
import { IST_OFFSET_MS, istDayNumber } from '../domain/ist.ts';
import type { CandleBar } from './candle-chunk-csv.ts';
import { type CandleChunk, dateDay, dayDate, planCandleChunks } from './candle-chunk-plan.ts';
import { CandleDownloadError } from './candle-download-error.ts';
import { candleMasterRows } from './candle-master-rows.ts';
import type {
  CandleInstrument,
  CandleRecordingMeta,
  CandleSource,
} from './candle-recording-meta.ts';
import { CandleRecordingWriter } from './candle-recording-writer.ts';
import { checkChunkPlan } from './check-chunk-plan.ts';
import { dayBarStart } from './day-bar-start.ts';
import { deriveCandleHolidays, holidayYears } from './derive-candle-holidays.ts';

/** Our intervals as the endpoint names them. */
const ENDPOINT: Readonly<Record<CandleInterval, EndpointInterval>> = {
  '1m': 'min',
  '3m': '3min',
  '5m': '5min',
  '10m': '10min',
  '15m': '15min',
  '30m': '30min',
  '1h': 'hour',
  '1d': 'day',
};

/** What a download needs of the client: candles, holidays, the instrument master. */
export type CandleDownloadClient = Pick<TiqsClient, 'candles' | 'holidays' | 'instrumentMaster'>;

/** Options of {@link downloadCandles}. */
export interface DownloadCandlesOptions {
  /** Paced by its own pacer (the candle endpoint's 10 requests a second) and retrying reads. */
  readonly client: CandleDownloadClient;
  readonly out: string;
  readonly tokens: readonly number[];
  readonly interval: CandleInterval;
  /** IST dates, both inclusive. */
  readonly from: string;
  readonly to: string;
  /** Days per chunk; default calendar months (intraday) or years (`1d`). */
  readonly chunkDays?: number;
  readonly source: Exclude<CandleSource, 'import'>;
  readonly masterFormat: InstrumentMasterFormat;
  /** The source's now: days from its IST today on are not complete, so not fetched. */
  readonly now: number;
  /** Called after each chunk (fetched or already present): done and total chunks of all tokens. */
  readonly onProgress?: (done: number, total: number) => void;
  readonly signal?: AbortSignal;
}

/** What {@link downloadCandles} did. */
export interface CandleDownloadReport {
  readonly meta: CandleRecordingMeta;
  /** Chunk files fetched now, and found already present (a resumed download). */
  readonly fetched: number;
  readonly kept: number;
}

/**
 * Downloads candles into a candle recording (/work/candle-format.md): the instruments
 * from the master (`instruments.csv` too), the source's holidays, then every chunk of
 * every token not already on disk, one request each, written whole. A rerun into the same
 * folder fetches only the chunks missing. A chunk that fails after the client's retries
 * stops the download with CandleDownloadError `chunk-failed`; what was saved stays.
 *
 * @example
 * ```ts
 * const r = await downloadCandles({ client, out, tokens: [3045], interval: '1m', from: '2025-01-01', to: '2025-12-31', source: 'service', masterFormat, now: Date.now() });
 * ```
 */
export async function downloadCandles(o: DownloadCandlesOptions): Promise<CandleDownloadReport> {
  const today = dayDate(istDayNumber(o.now));
  // A chunk file is complete once written, so no chunk may reach a day still trading.
  if (o.to >= today)
    throw new CandleDownloadError(
      'bad-range',
      `--to ${o.to} must be before the source's today (${today}, IST): its bars are not all in yet`,
    );
  const { to } = o;
  let master: string;
  try {
    master = await o.client.instrumentMaster(o.signal);
  } catch (err) {
    throw new CandleDownloadError(
      'no-master',
      `cannot read the instrument master (GET /all) to name the tokens' exchanges`,
      { cause: err },
    );
  }
  const { instruments, csv } = candleMasterRows(master, o.tokens, o.masterFormat);
  let holidays: Holidays;
  try {
    holidays = await o.client.holidays(o.signal);
  } catch (err) {
    throw new CandleDownloadError(
      'no-holidays',
      `cannot read the holiday list (GET /info/holidays) the recording's calendar comes from`,
      { cause: err },
    );
  }
  const chunks = planCandleChunks(o.from, to, o.interval, o.chunkDays);
  await checkChunkPlan(o.out, o.tokens, chunks);
  const writer = await CandleRecordingWriter.open(
    o.out,
    { interval: o.interval, from: o.from, to, instruments, holidays, source: o.source },
    'resume',
  );
  await writer.writeFile('instruments.csv', csv);
  const total = chunks.length * instruments.length;
  let [done, fetched, kept] = [0, 0, 0];
  for (const chunk of chunks) {
    for (const inst of instruments) {
      // Interrupted (Ctrl-C): stop between chunks; every chunk written so far is whole.
      o.signal?.throwIfAborted();
      if (await writer.hasChunk(inst.token, chunk.from, chunk.to)) kept += 1;
      else {
        const bars = await fetchChunk(o, inst, chunk, holidays);
        await writer.writeChunk(inst.token, chunk.from, chunk.to, bars);
        fetched += 1;
      }
      done += 1;
      o.onProgress?.(done, total);
    }
  }
  const meta = await writer.finish((summary) => ({
    // The source's list is its current year's: the years before are read from the data.
    holidays: mergeHolidays(
      deriveCandleHolidays(o.from, to, summary.days, holidayYears(holidays)),
      holidays,
    ),
  }));
  return { meta, fetched, kept };
}

async function fetchChunk(
  o: DownloadCandlesOptions,
  inst: CandleInstrument,
  chunk: CandleChunk,
  holidays: Holidays,
): Promise<CandleBar[]> {
  const from = dateDay(chunk.from) * 86_400_000 - IST_OFFSET_MS;
  const end = (dateDay(chunk.to) + 1) * 86_400_000 - IST_OFFSET_MS;
  let rows: CandleRow[];
  try {
    rows = await o.client.candles(
      {
        exchange: inst.exchange,
        token: inst.token,
        interval: ENDPOINT[o.interval],
        from,
        to: end - 1_000,
        ...(inst.exchange === 'NFO' || inst.exchange === 'BFO' ? { oi: true } : {}),
      },
      o.signal,
    );
  } catch (err) {
    if (o.signal?.aborted === true) throw o.signal.reason;
    throw new CandleDownloadError(
      'chunk-failed',
      `token ${inst.token} chunk ${chunk.from}..${chunk.to}: ${(err as Error).message}`,
      { cause: err },
    );
  }
  const byStart = new Map<number, CandleBar>();
  const stamp = o.interval === '1d' ? dayBarStart(holidays, inst.exchange) : (t: number) => t;
  for (const r of rows) {
    // Only this chunk's days, and only bars complete at the source's now.
    if (r.time < from || r.time >= end || r.time + CANDLE_INTERVAL_MS[o.interval] > o.now) continue;
    const { open, high, low, close, volume, oi } = r;
    const time = stamp(r.time);
    byStart.set(time, {
      start: time,
      open,
      high,
      low,
      close,
      volume,
      ...(oi === undefined ? {} : { oi }),
    });
  }
  return [...byStart.values()].sort((a, b) => a.start - b.start);
}
