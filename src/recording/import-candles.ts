import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Holidays, holidaysSchema } from '../api/schemas/utilities.ts';
import { mergeHolidays } from '../calendar/merge-holidays.ts';
import type { CandleInterval } from '../domain/candle.ts';
import { istDayNumber } from '../domain/ist.ts';
import type { Exchange } from '../domain/order-params.ts';
import type { CandleBar } from './candle-chunk-csv.ts';
import { dayDate, planCandleChunks } from './candle-chunk-plan.ts';
import { candleImportWarnings } from './candle-import-checks.ts';
import { CandleImportError } from './candle-import-error.ts';
import type { PriceUnits } from './candle-import-fields.ts';
import { importedMasterCsv } from './candle-import-master.ts';
import type { CandleInstrument, CandleRecordingMeta } from './candle-recording-meta.ts';
import { CandleRecordingWriter } from './candle-recording-writer.ts';
import { dayBarStart } from './day-bar-start.ts';
import { deriveCandleHolidays, holidayYears } from './derive-candle-holidays.ts';
import { readCandleCsv } from './read-candle-csv.ts';

/** Options of {@link importCandles}. */
export interface ImportCandlesOptions {
  readonly csv: string;
  readonly out: string;
  readonly token: number;
  readonly exchange: Exchange;
  readonly symbol: string;
  readonly interval: CandleInterval;
  readonly units: PriceUnits;
  /** Paise; default 5. */
  readonly tickSize?: number;
  /** Default 1. */
  readonly lotSize?: number;
  /** JSON in the service's `/info/holidays` shape; default: derived from the data. */
  readonly holidaysFile?: string;
}

/** What {@link importCandles} wrote. */
export interface CandleImportReport {
  readonly meta: CandleRecordingMeta;
  /** Bars of this token. */
  readonly bars: number;
  readonly from: string;
  readonly to: string;
  /** True when the holidays were derived from the data (no `--holidays`). */
  readonly derivedHolidays: boolean;
  /** First and last close of this token, paise (for the summary line: wrong units show). */
  readonly firstClose: number;
  readonly lastClose: number;
  /** What looks wrong in the bars though they were written (`candleImportWarnings`). */
  readonly warnings: string[];
}

async function readHolidays(file: string): Promise<Holidays> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new CandleImportError(
      file,
      undefined,
      undefined,
      `not readable JSON: ${(err as Error).message}`,
      { cause: err },
    );
  }
  const parsed = holidaysSchema.safeParse(raw);
  if (!parsed.success)
    throw new CandleImportError(
      file,
      undefined,
      undefined,
      `not the holidays shape ({ holidays: { "DD-MM-YYYY": name }, specialTradingDays: {...} }): ${parsed.error.issues[0]?.message ?? ''}`,
    );
  return parsed.data;
}

/**
 * A `--holidays` file must cover every year of the data: a replay treats days of a year
 * its calendar does not know as closed, so every bar of such a year would be skipped.
 */
function checkCoverage(file: string, given: Holidays, from: string, to: string): void {
  const covered = holidayYears(given);
  const lacking: number[] = [];
  for (let y = Number(from.slice(0, 4)); y <= Number(to.slice(0, 4)); y++)
    if (!covered.has(y)) lacking.push(y);
  if (lacking.length > 0)
    throw new CandleImportError(
      file,
      undefined,
      undefined,
      `lists no day of ${lacking.join(', ')}, but the data runs ${from}..${to}; give holidays for every year of the data (or leave out --holidays to derive them from the bars)`,
    );
}

/**
 * The calendar of the folder being extended that came from a source (a `history`
 * download, or a `--holidays` file): null when it was derived from the data (re-derived
 * with the new token's bars) or there is none.
 */
function sourceHolidays(previous: CandleRecordingMeta | null): Holidays | null {
  if (previous === null || previous.holidays === null) return null;
  if (previous.source !== 'import') return previous.holidays;
  return previous.note?.startsWith('imported; holidays from ') === true ? previous.holidays : null;
}

/**
 * Imports one token's vendor candle file into a candle recording (/work/candle-format.md):
 * the rows checked and converted (see `readCandleCsv`), written a month per chunk file;
 * into a folder that holds other tokens of the same interval, added beside them (the same
 * token again replaces its earlier import). Holidays from `holidaysFile`, else derived
 * from the data of every token (a weekday with no bar is a holiday), said in `note`.
 *
 * @example
 * ```ts
 * await importCandles({ csv: 'sbin.csv', out, token: 3045, exchange: 'NSE', symbol: 'SBIN-EQ', interval: '1m', units: 'rupees' });
 * ```
 */
export async function importCandles(o: ImportCandlesOptions): Promise<CandleImportReport> {
  // A derivative's lot is never 1: a default would size every order of a backtest wrong.
  if ((o.exchange === 'NFO' || o.exchange === 'BFO') && o.lotSize === undefined)
    throw new CandleImportError(
      o.csv,
      undefined,
      undefined,
      `--exchange ${o.exchange} needs --lot-size (the contract's lot, e.g. 75 for NIFTY)`,
    );
  const given = o.holidaysFile === undefined ? undefined : await readHolidays(o.holidaysFile);
  const read = await readCandleCsv(o.csv, { units: o.units, interval: o.interval });
  const stamp = dayBarStart(given ?? null, o.exchange);
  const bars = o.interval === '1d' ? read.map((b) => ({ ...b, start: stamp(b.start) })) : read;
  const first = bars[0];
  const last = bars[bars.length - 1];
  if (first === undefined || last === undefined)
    throw new CandleImportError(o.csv, 2, undefined, 'no rows after the header');
  const [from, to] = [dayDate(istDayNumber(first.start)), dayDate(istDayNumber(last.start))];
  if (given !== undefined) checkCoverage(o.holidaysFile as string, given, from, to);
  const instrument: CandleInstrument = {
    token: o.token,
    exchange: o.exchange,
    symbol: o.symbol,
    tickSize: o.tickSize ?? 5,
    lotSize: o.lotSize ?? 1,
  };
  const writer = await CandleRecordingWriter.open(
    o.out,
    {
      interval: o.interval,
      from,
      to,
      instruments: [instrument],
      holidays: given ?? null,
      source: 'import',
    },
    'extend',
  );
  await writer.dropToken(o.token);
  let i = 0;
  for (const chunk of planCandleChunks(from, to, o.interval)) {
    const part: CandleBar[] = [];
    while (i < bars.length && dayDate(istDayNumber((bars[i] as CandleBar).start)) <= chunk.to)
      part.push(bars[i++] as CandleBar);
    await writer.writeChunk(o.token, chunk.from, chunk.to, part);
  }
  const master = await readFile(join(o.out, 'instruments.csv'), 'utf8').catch(() => null);
  await writer.writeFile(
    'instruments.csv',
    importedMasterCsv(master, instrument, writer.current.instruments),
  );
  // A source's calendar (a `history` folder's, or an earlier `--holidays`) is kept: only
  // the years it does not cover are given or derived.
  const kept = sourceHolidays(writer.previous);
  const meta = await writer.finish((summary) => {
    if (given !== undefined)
      return {
        holidays: kept === null ? given : mergeHolidays(kept, given),
        note: `imported; holidays from ${o.holidaysFile}`,
      };
    const { from: a, to: b } = writer.current;
    const derived = deriveCandleHolidays(a, b, summary.days, holidayYears(kept));
    return {
      holidays: kept === null ? derived : mergeHolidays(derived, kept),
      note:
        kept === null
          ? 'imported; holidays derived from the data: a weekday with no bar of any token is a holiday'
          : `${writer.previous?.note ?? writer.previous?.source}; imported tokens beside it, holidays derived for the years its calendar lacks`,
    };
  });
  return {
    meta,
    bars: bars.length,
    from,
    to,
    derivedHolidays: given === undefined,
    firstClose: first.close,
    lastClose: last.close,
    warnings: candleImportWarnings(bars, instrument.tickSize, o.interval),
  };
}
