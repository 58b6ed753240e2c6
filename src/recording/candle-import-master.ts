import { parse } from 'csv-parse/sync';
import type { CandleInstrument } from './candle-recording-meta.ts';

/** The simulator's master columns: what an import writes when the folder has no master yet. */
const INSTRUMENTS_HEADER =
  'Exchange,Token,Symbol,Name,Segment,Expiry,OptionType,StrikePrice,LotSize,TickSize,PricePrecision,Multiplier,PriceMultiplier';

/** An imported instrument's master fields by column name (others are left empty). */
function fields(i: CandleInstrument): Record<string, string> {
  const segment = i.exchange === 'NSE' || i.exchange === 'BSE' ? 'EQ' : '';
  return {
    Exchange: i.exchange,
    Token: String(i.token),
    Symbol: i.symbol,
    Name: i.symbol,
    Segment: segment,
    StrikePrice: '0',
    LotSize: String(i.lotSize),
    TickSize: String(i.tickSize),
    PricePrecision: '2',
    Multiplier: '1',
    PriceMultiplier: '1.0',
  };
}

/** A CSV field, quoted when it must be. */
function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * `instruments.csv` after importing `imported` into a folder whose master is `existing`
 * (null: none yet). The rows of every other token are kept as they were, verbatim (a
 * `history` download's master rows carry segment, expiry, strike and option type an
 * import cannot know); the imported token's row is replaced or added, in the existing
 * header's columns. With no master yet, every instrument of `all` gets a row.
 *
 * @example
 * ```ts
 * const csv = importedMasterCsv(await readFile(file, 'utf8'), instrument, meta.instruments);
 * ```
 */
export function importedMasterCsv(
  existing: string | null,
  imported: CandleInstrument,
  all: readonly CandleInstrument[],
): string {
  const rows =
    existing === null
      ? []
      : (parse(existing, {
          bom: true,
          skip_empty_lines: true,
          relax_column_count: true,
          raw: true,
        }) as unknown as Array<{ record: string[]; raw: string }>);
  const header = rows[0]?.record;
  const tokenAt = header?.indexOf('Token') ?? -1;
  if (header === undefined || tokenAt < 0) {
    const lines = all.map((i) => {
      const f = fields(i);
      return INSTRUMENTS_HEADER.split(',')
        .map((c) => csvField(f[c] ?? ''))
        .join(',');
    });
    return `${[INSTRUMENTS_HEADER, ...lines].join('\n')}\n`;
  }
  const own = String(imported.token);
  const kept = rows
    .filter((r, i) => i === 0 || (r.record[tokenAt] ?? '').trim() !== own)
    .map((r) => r.raw.replace(/\r?\n$/, ''));
  const f = fields(imported);
  const row = header.map((c) => csvField(f[c.trim()] ?? '')).join(',');
  return `${[...kept, row].join('\n')}\n`;
}
