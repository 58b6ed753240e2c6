import { formatRupees } from '../../domain/money.ts';
import type { InstrumentUniverse } from './instrument-universe.ts';
import type { SimInstrument } from './sim-instrument.ts';

/** The simulator's header row (api-facts.md, "Instrument master"). */
export const SIM_MASTER_HEADERS = [
  'Exchange',
  'Token',
  'Symbol',
  'Name',
  'Segment',
  'Expiry',
  'OptionType',
  'StrikePrice',
  'LotSize',
  'TickSize',
  'PricePrecision',
  'Multiplier',
  'PriceMultiplier',
] as const;

/** A field as CSV: quoted when it holds a comma, a quote or a line break. */
const field = (value: string): string =>
  /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;

/** One instrument's row. Indexes are listed on NSE with segment `INDEX`, as brokers' masters do. */
function row(i: SimInstrument): string[] {
  const segment = i.kind === 'index' ? 'INDEX' : i.kind === 'option' ? 'OPTIDX' : 'EQ';
  const o = i.option;
  return [
    i.exchange === 'INDEX' ? 'NSE' : i.exchange,
    String(i.token),
    i.symbol,
    i.name,
    segment,
    o?.expiry ?? '',
    o?.optionType ?? '',
    // Rupees with paise, like the client's float column; 0 for what has no strike.
    o === undefined ? '0' : formatRupees(o.strike, 2),
    String(i.lotSize),
    // Paise, the unit the facts call most likely.
    String(i.tick),
    String(i.pricePrecision),
    '1',
    '1.0',
  ];
}

/**
 * The simulator's instrument master (`GET /all`): a CSV file with a header row listing
 * every instrument it quotes (indexes, equities, options), ordered by token.
 *
 * @example
 * ```ts
 * instrumentMasterFile(exchange.market.universe).split('\n')[0]; // 'Exchange,Token,Symbol,…'
 * ```
 */
export function instrumentMasterFile(universe: InstrumentUniverse): string {
  return instrumentMasterTable(universe).text;
}

/**
 * The master's records (the header first, one line each) and the CSV text they make:
 * the embedded simulator's bot reads the records directly instead of parsing the text.
 */
export function instrumentMasterTable(universe: InstrumentUniverse): {
  records: string[][];
  text: string;
} {
  const all = [...universe.all()].sort((a, b) => a.token - b.token);
  const records = [[...SIM_MASTER_HEADERS], ...all.map(row)];
  const lines = records.map((r) => r.map(field).join(','));
  return { records, text: `${lines.join('\n')}\n` };
}
