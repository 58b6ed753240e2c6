import { parse } from 'csv-parse/sync';
import {
  type InstrumentMasterFormat,
  parseInstrumentMaster,
} from '../api/instrument-master-csv.ts';
import { CandleDownloadError } from './candle-download-error.ts';
import type { CandleInstrument } from './candle-recording-meta.ts';

/** The tokens' instruments and the master's lines for them. */
export interface CandleMasterRows {
  readonly instruments: CandleInstrument[];
  /** `instruments.csv`: the master's header and the tokens' rows, as the source wrote them. */
  readonly csv: string;
}

/**
 * Finds `tokens` in an instrument master CSV (`GET /all`): exchange, symbol, tick and lot
 * of each, and the master's own lines for them (kept verbatim for `instruments.csv`).
 * Throws CandleDownloadError `unknown-token` naming every token the master does not list.
 *
 * @example
 * ```ts
 * const { instruments, csv } = candleMasterRows(await client.instrumentMaster(), [3045], DEFAULT_INSTRUMENT_MASTER_FORMAT);
 * ```
 */
export function candleMasterRows(
  text: string,
  tokens: readonly number[],
  format: InstrumentMasterFormat,
): CandleMasterRows {
  const { instruments } = parseInstrumentMaster(text, format);
  const byToken = new Map(instruments.map((i) => [i.token, i]));
  const unknown = tokens.filter((t) => !byToken.has(t));
  if (unknown.length > 0)
    throw new CandleDownloadError(
      'unknown-token',
      `the instrument master lists no token ${unknown.join(', ')} (NSE, NFO, BSE, BFO rows)`,
    );
  const found = tokens.map((t) => byToken.get(t) as NonNullable<ReturnType<typeof byToken.get>>);
  const rows = parse(text, {
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    raw: true,
  }) as unknown as Array<{ record: string[]; raw: string }>;
  const tokenAt = rows[0]?.record.indexOf(format.columns.token) ?? -1;
  const wanted = new Set(tokens.map(String));
  const lines = rows
    .filter((r, i) => i === 0 || wanted.has((r.record[tokenAt] ?? '').trim()))
    .map((r) => r.raw.replace(/\r?\n$/, ''));
  return {
    instruments: found.map((i) => ({
      token: i.token,
      exchange: i.exchange,
      symbol: i.symbol,
      tickSize: i.tickSize ?? 5,
      lotSize: i.lotSize ?? 1,
    })),
    csv: `${lines.join('\n')}\n`,
  };
}
