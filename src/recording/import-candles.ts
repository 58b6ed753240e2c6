import { readFile } from 'node:fs/promises';
import { type Holidays, holidaysSchema } from '../api/schemas/utilities.ts';
import type { CandleInterval } from '../domain/candle.ts';
import { istDayNumber } from '../domain/ist.ts';
import type { Exchange } from '../domain/order-params.ts';
import type { CandleBar } from './candle-chunk-csv.ts';
import { dayDate, planCandleChunks } from './candle-chunk-plan.ts';
import { CandleImportError } from './candle-import-error.ts';
import type { PriceUnits } from './candle-import-fields.ts';
import type { CandleInstrument, CandleRecordingMeta } from './candle-recording-meta.ts';
import { CandleRecordingWriter } from './candle-recording-writer.ts';
import { dayBarStart } from './day-bar-start.ts';
import { deriveCandleHolidays } from './derive-candle-holidays.ts';
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
}

const INSTRUMENTS_HEADER =
  'Exchange,Token,Symbol,Name,Segment,Expiry,OptionType,StrikePrice,LotSize,TickSize,PricePrecision,Multiplier,PriceMultiplier';

/** `instruments.csv` for the recording's instruments, in the simulator's master columns. */
function instrumentsCsv(instruments: readonly CandleInstrument[]): string {
  const rows = instruments.map((i) => {
    const segment = i.exchange === 'NSE' || i.exchange === 'BSE' ? 'EQ' : '';
    return `${i.exchange},${i.token},${i.symbol},${i.symbol},${segment},,,0,${i.lotSize},${i.tickSize},2,1,1.0`;
  });
  return `${[INSTRUMENTS_HEADER, ...rows].join('\n')}\n`;
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
  const given = o.holidaysFile === undefined ? undefined : await readHolidays(o.holidaysFile);
  const read = await readCandleCsv(o.csv, { units: o.units, interval: o.interval });
  const stamp = dayBarStart(given ?? null, o.exchange);
  const bars = o.interval === '1d' ? read.map((b) => ({ ...b, start: stamp(b.start) })) : read;
  const first = bars[0];
  const last = bars[bars.length - 1];
  if (first === undefined || last === undefined)
    throw new CandleImportError(o.csv, 2, undefined, 'no rows after the header');
  const [from, to] = [dayDate(istDayNumber(first.start)), dayDate(istDayNumber(last.start))];
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
  await writer.writeFile('instruments.csv', instrumentsCsv(writer.current.instruments));
  const meta = await writer.finish((summary) =>
    given !== undefined
      ? { holidays: given, note: `imported; holidays from ${o.holidaysFile}` }
      : {
          holidays: deriveCandleHolidays(writer.current.from, writer.current.to, summary.days),
          note: 'imported; holidays derived from the data: a weekday with no bar of any token is a holiday',
        },
  );
  return { meta, bars: bars.length, from, to, derivedHolidays: given === undefined };
}
