import { createReadStream } from 'node:fs';
import { CsvError, parse } from 'csv-parse';
import type { CandleInterval } from '../domain/candle.ts';
import type { CandleBar } from './candle-chunk-csv.ts';
import { CandleImportError } from './candle-import-error.ts';
import { type PriceUnits, parseCount, parsePrice, parseTimestamp } from './candle-import-fields.ts';

const COLUMNS = ['timestamp', 'open', 'high', 'low', 'close', 'volume', 'oi'] as const;
const MINUTE_MS = 60_000;

/** Options of {@link readCandleCsv}. */
export interface ReadCandleCsvOptions {
  readonly units: PriceUnits;
  readonly interval: CandleInterval;
}

/**
 * Reads a vendor candle file: a header row `timestamp,open,high,low,close,volume[,oi]`
 * (any case), one bar a row in time order. Prices converted exactly to paise, times to
 * epoch ms (naive ones are IST). The first bad row stops the read with CandleImportError
 * naming the file, its line (the header is line 1) and its column.
 *
 * @example
 * ```ts
 * const bars = await readCandleCsv('sbin.csv', { units: 'rupees', interval: '1m' });
 * ```
 */
export async function readCandleCsv(
  file: string,
  options: ReadCandleCsvOptions,
): Promise<CandleBar[]> {
  const parser = createReadStream(file).pipe(
    parse({ bom: true, skip_empty_lines: true, relax_column_count: true, info: true }),
  );
  const bars: CandleBar[] = [];
  let width = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      const line = info.lines;
      if (width === 0) {
        width = header(file, line, record);
        continue;
      }
      if (record.length !== width)
        throw new CandleImportError(
          file,
          line,
          undefined,
          `expected ${width} columns, found ${record.length}`,
        );
      const bar = readRow(file, line, record, options);
      const prev = bars[bars.length - 1];
      if (prev !== undefined && bar.start <= prev.start)
        throw new CandleImportError(
          file,
          line,
          1,
          'timestamp (not after the row before: rows must be in time order, once each)',
        );
      bars.push(bar);
    }
  } catch (err) {
    if (err instanceof CandleImportError) throw err;
    if (err instanceof CsvError)
      throw new CandleImportError(
        file,
        (err as CsvError & { lines?: number }).lines ?? 0,
        undefined,
        `not readable CSV (${err.code})`,
        { cause: err },
      );
    throw new CandleImportError(
      file,
      undefined,
      undefined,
      `cannot read: ${(err as Error).message}`,
      {
        cause: err,
      },
    );
  }
  if (width === 0) throw new CandleImportError(file, 1, undefined, 'empty file: no header row');
  return bars;
}

/** Checks the header; returns its width (6, or 7 with `oi`). */
function header(file: string, line: number, record: string[]): number {
  const names = record.map((c) => c.trim().toLowerCase());
  const want = names.length === 7 ? COLUMNS : COLUMNS.slice(0, 6);
  const bad = want.findIndex((name, i) => names[i] !== name);
  if ((names.length !== 6 && names.length !== 7) || bad >= 0)
    throw new CandleImportError(
      file,
      line,
      bad >= 0 ? bad + 1 : undefined,
      `the header must be timestamp,open,high,low,close,volume[,oi]; found ${record.join(',')}`,
    );
  return names.length;
}

function readRow(
  file: string,
  line: number,
  record: string[],
  options: ReadCandleCsvOptions,
): CandleBar {
  const fail = (col: number, why: string): never => {
    throw new CandleImportError(file, line, col + 1, `${COLUMNS[col]}: ${why}`);
  };
  const value = <T>(col: number, read: (text: string) => T | string): T => {
    const v = read(record[col] ?? '');
    return typeof v === 'string' ? fail(col, v) : v;
  };
  const start = value(0, parseTimestamp);
  if (options.interval !== '1d' && start % MINUTE_MS !== 0) fail(0, 'not on a whole minute');
  const [open, high, low, close] = [1, 2, 3, 4].map((c) =>
    value(c, (t) => parsePrice(t, options.units)),
  ) as [number, number, number, number];
  if (high < Math.max(open, low, close)) fail(2, `${record[2]} is below open, low or close`);
  if (low > Math.min(open, close)) fail(3, `${record[3]} is above open or close`);
  const volume = value(5, parseCount);
  const oiText = (record[6] ?? '').trim();
  const bar: CandleBar = { start, open, high, low, close, volume };
  return oiText === '' ? bar : { ...bar, oi: value(6, parseCount) };
}
