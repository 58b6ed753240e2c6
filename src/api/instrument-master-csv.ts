import { CsvError, parse } from 'csv-parse/sync';
import type { Instrument } from '../domain/intents.ts';
import { EXCHANGES, type Exchange } from '../domain/order-params.ts';
import { plainCsvRecords } from './plain-csv-records.ts';

/**
 * Header names of the instrument master's columns. The service's names for token, symbol,
 * exchange, expiry and option type are not known (api-facts.md, "Instrument master"), so
 * every name is configurable; the defaults are the simulator's. `expiry`, `optionType`,
 * `strike` and `pricePrecision` may be absent from a file; the others are required.
 */
export interface InstrumentMasterColumns {
  exchange: string;
  token: string;
  symbol: string;
  lotSize: string;
  tickSize: string;
  pricePrecision: string;
  expiry: string;
  optionType: string;
  strike: string;
}

/** The simulator's header names (and the client's PascalCase ones where known). */
const DEFAULT_INSTRUMENT_MASTER_COLUMNS: InstrumentMasterColumns = {
  exchange: 'Exchange',
  token: 'Token',
  symbol: 'Symbol',
  lotSize: 'LotSize',
  tickSize: 'TickSize',
  pricePrecision: 'PricePrecision',
  expiry: 'Expiry',
  optionType: 'OptionType',
  strike: 'StrikePrice',
};

/** How the numbers of the file are read. */
export interface InstrumentMasterFormat {
  columns: InstrumentMasterColumns;
  /** Unit of `TickSize`: paise (5 = ₹0.05, the likely one) or rupees (0.05). */
  tickUnit: 'paise' | 'rupees';
  /** Unit of `StrikePrice`: rupees (25800 = ₹25,800, the likely one) or paise. */
  strikeUnit: 'rupees' | 'paise';
}

/** The simulator's format. */
export const DEFAULT_INSTRUMENT_MASTER_FORMAT: InstrumentMasterFormat = {
  columns: DEFAULT_INSTRUMENT_MASTER_COLUMNS,
  tickUnit: 'paise',
  strikeUnit: 'rupees',
};

/** A row left out of the master, and why. */
export interface SkippedRow {
  /** 1-based line of the file (the header is line 1). */
  line: number;
  reason: string;
}

/** What {@link parseInstrumentMaster} read. */
export interface ParsedInstrumentMaster {
  instruments: Instrument[];
  /** Rows that could not be read (bad numbers); the rest of the file still counts. */
  skipped: SkippedRow[];
  /** Rows of exchanges the framework does not trade (MCX, CDS, …), left out silently. */
  otherExchanges: number;
}

/** The file as a whole cannot be read: not CSV, or a required column is missing. */
export class InstrumentMasterFormatError extends Error {
  override readonly name = 'InstrumentMasterFormatError';
  /** The header row as read (empty when there was none). */
  readonly headers: readonly string[];

  constructor(message: string, headers: readonly string[], options?: { cause?: unknown }) {
    super(message, options);
    this.headers = headers;
  }
}

const REQUIRED = ['exchange', 'token', 'symbol', 'lotSize', 'tickSize'] as const;

/**
 * Reads the service's instrument master (`GET /all`, CSV with a header row) by header
 * name. Exchanges outside `NSE`, `NFO`, `BSE`, `BFO` are left out; a row with a bad token,
 * lot or tick is skipped and named by its line, so one bad row does not cost the day.
 *
 * @throws {InstrumentMasterFormatError} for text that is not CSV, or a header row missing a
 *   required column (the message lists the headers seen and the column map to set).
 * @example
 * ```ts
 * const { instruments } = parseInstrumentMaster(csv, DEFAULT_INSTRUMENT_MASTER_FORMAT);
 * ```
 */
export function parseInstrumentMaster(
  text: string,
  format: InstrumentMasterFormat,
): ParsedInstrumentMaster {
  // A plain table (no quote anywhere, as the service's and the simulator's are) is split
  // natively: the same records as csv-parse's, ten times faster (plain-csv-records.ts).
  const plain = plainCsvRecords(text);
  if (plain !== undefined) return readInstrumentMasterRecords(plain, format);
  let rows: Array<{ record: string[]; info: { lines: number } }>;
  try {
    rows = parse(text, {
      bom: true,
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
      info: true,
      // The typings do not follow `info`, which wraps each record with its line.
    }) as unknown as typeof rows;
  } catch (err) {
    const where = err instanceof CsvError ? ` (${err.code})` : '';
    throw new InstrumentMasterFormatError(`instrument master is not readable CSV${where}`, [], {
      cause: err,
    });
  }
  return readInstrumentMasterRecords(
    rows.map(({ record, info }) => ({ record, line: info.lines })),
    format,
  );
}

/**
 * Reads an instrument master already split into records (the header first), each with
 * its 1-based line: {@link parseInstrumentMaster} after the CSV parse, or the embedded
 * simulator's rows as it would write them, without the text round trip.
 *
 * @throws {InstrumentMasterFormatError} for a header row missing a required column.
 */
export function readInstrumentMasterRecords(
  rows: readonly { record: readonly string[]; line: number }[],
  format: InstrumentMasterFormat,
): ParsedInstrumentMaster {
  const headers = rows[0]?.record ?? [];
  const { columns } = format;
  const index = (name: string): number => headers.indexOf(name);
  const missing = REQUIRED.filter((key) => index(columns[key]) < 0);
  if (missing.length > 0) {
    const wanted = missing.map((k) => `${k} ("${columns[k]}")`).join(', ');
    throw new InstrumentMasterFormatError(
      `instrument master: no column for ${wanted}; headers seen: ${headers.length > 0 ? headers.join(', ') : '(none)'}. Set instruments.columns in the config to the names the service uses`,
      [...headers],
    );
  }
  const at = Object.fromEntries(
    Object.entries(columns).map(([key, name]) => [key, index(name)]),
  ) as Record<keyof InstrumentMasterColumns, number>;
  const out: ParsedInstrumentMaster = { instruments: [], skipped: [], otherExchanges: 0 };
  // An exchange's text (NSE, nse, MCX…) is looked up once per distinct text, not per row.
  const exchanges = new Map<string, Exchange | undefined>();
  const exchangeOf = (text: string): Exchange | undefined => {
    if (exchanges.has(text)) return exchanges.get(text);
    const exchange = EXCHANGES.find((e) => e === text.toUpperCase());
    exchanges.set(text, exchange);
    return exchange;
  };
  for (let i = 1; i < rows.length; i++) {
    const { record: row, line } = rows[i] ?? { record: [], line: 0 };
    const cell = (key: keyof InstrumentMasterColumns): string =>
      at[key] < 0 ? '' : (row[at[key]] ?? '');
    const exchange = exchangeOf(cell('exchange'));
    if (exchange === undefined) {
      out.otherExchanges += 1;
      continue;
    }
    const read = readRow(cell, exchange, format);
    // The parser's line, not the row index: empty lines are skipped and quoted fields may span lines.
    if (typeof read === 'string') out.skipped.push({ line, reason: read });
    else out.instruments.push(read);
  }
  return out;
}

/** One row as an instrument, or why it cannot be one. */
function readRow(
  cell: (key: keyof InstrumentMasterColumns) => string,
  exchange: Exchange,
  format: InstrumentMasterFormat,
): Instrument | string {
  const token = Number(cell('token'));
  if (!Number.isSafeInteger(token) || token <= 0)
    return `token "${cell('token')}" is not a positive integer`;
  const symbol = cell('symbol');
  if (symbol === '') return 'empty symbol';
  const lotSize = Number(cell('lotSize'));
  if (!Number.isSafeInteger(lotSize) || lotSize <= 0)
    return `lot size "${cell('lotSize')}" is not a positive integer`;
  const tickRaw = Number(cell('tickSize'));
  const tickSize = format.tickUnit === 'rupees' ? Math.round(tickRaw * 100) : tickRaw;
  if (!Number.isSafeInteger(tickSize) || tickSize <= 0) {
    return `tick size "${cell('tickSize')}" is not a positive whole number of paise (instruments.tickUnit is ${format.tickUnit})`;
  }
  const instrument: Instrument = { exchange, token, symbol, lotSize, tickSize };
  const precision = Number(cell('pricePrecision'));
  if (cell('pricePrecision') !== '' && Number.isSafeInteger(precision) && precision >= 0)
    instrument.pricePrecision = precision;
  const expiry = cell('expiry');
  if (expiry !== '') instrument.expiry = expiry;
  const optionType = cell('optionType').toUpperCase();
  if (optionType === 'CE' || optionType === 'PE') instrument.optionType = optionType;
  const strikeRaw = Number(cell('strike'));
  // Futures and equities carry 0, -1 or nothing: no strike.
  if (cell('strike') !== '' && Number.isFinite(strikeRaw) && strikeRaw > 0)
    instrument.strike = Math.round(format.strikeUnit === 'rupees' ? strikeRaw * 100 : strikeRaw);
  return instrument;
}
