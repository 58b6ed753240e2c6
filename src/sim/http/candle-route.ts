import { formatCandleTime } from '../../api/schemas/candle.ts';
import { IST_OFFSET_MS } from '../../domain/ist.ts';
import type { TapeInterval } from '../market/candle-tape.ts';
import { badRequest, notFound } from '../sim-error.ts';
import type { SimExchange } from '../sim-exchange.ts';
import { RawAnswer } from './raw-answer.ts';

/** The endpoint's interval names the simulator serves (not `week`, `month`). */
const INTERVALS: Readonly<Record<string, TapeInterval>> = {
  min: '1m',
  '3min': '3m',
  '5min': '5m',
  '10min': '10m',
  '15min': '15m',
  '30min': '30m',
  hour: '1h',
  '2hours': '2h',
  '3hours': '3h',
  '4hours': '4h',
  day: '1d',
};

const EXCHANGES = new Set(['nse', 'nfo', 'bse', 'bfo']);

/** `YYYY-MM-DDTHH:MM:SS` in IST (no offset; colons may come URL-encoded) as epoch ms. */
function istQueryTime(name: string, text: string | null): number {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})$/.exec(text ?? '');
  if (m === null) throw badRequest(`${name} must look like YYYY-MM-DDTHH:MM:SS (IST)`);
  return Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`) - IST_OFFSET_MS;
}

/**
 * `GET /candle/:exchange/:token/:interval?from=…&to=…` (api-facts.md, "Historical
 * candles"): a bare JSON array of `[time, open, high, low, close, volume]` rows (`[…, oi]`
 * with `oi=1`), prices in paise, time as `2023-05-02T09:15:00+0530`, day rows at 00:00,
 * from the simulator's own price paths (see `CandleTape`), and before the simulator's start
 * from its seeded past (`HistoryModel`: ten years back, the same for the same seed), so
 * `tiqs-runner history` works on a fresh clone. Options have no path: no rows.
 * The exchange is one of nse, nfo, bse, bfo; a token on another exchange's path is
 * unknown there (404), as the sim lists nothing on BSE.
 *
 * @example
 * ```ts
 * serveCandles(exchange, ['nse', '3045', 'min'], '/candle/nse/3045/min?from=2026-11-20T09:15:00&to=2026-11-20T10:00:00');
 * ```
 */
export function serveCandles(
  exchange: SimExchange,
  params: readonly string[],
  url: string,
): RawAnswer {
  const [ex, tokenText, name] = params;
  const path = (ex ?? '').toLowerCase();
  if (!EXCHANGES.has(path))
    throw badRequest(`exchange must be one of ${[...EXCHANGES].join(', ')}`);
  const interval = INTERVALS[name ?? ''];
  if (interval === undefined) {
    throw badRequest(`interval must be one of ${Object.keys(INTERVALS).join(', ')}`);
  }
  const token = Number(tokenText);
  const instrument = Number.isInteger(token) ? exchange.market.instrument(token) : undefined;
  // Indexes are listed on NSE (as in the instrument master); a token is known on its own
  // exchange's path only.
  const listedOn = instrument?.exchange === 'INDEX' ? 'nse' : instrument?.exchange.toLowerCase();
  if (instrument === undefined || listedOn !== path) {
    throw notFound(`Unknown instrument token ${tokenText ?? ''} on ${path}`);
  }
  const query = new URLSearchParams(url.split('?')[1] ?? '');
  const from = istQueryTime('from', query.get('from'));
  const to = istQueryTime('to', query.get('to'));
  const withOi = query.get('oi') === '1';
  exchange.sync();
  const rows = exchange.candles.candles(token, interval, from, to).map(([t, ...rest]) => {
    const [open, high, low, close, volume, oi] = rest;
    const row: unknown[] = [formatCandleTime(t), open, high, low, close, volume];
    // The open interest the tape recorded (the sim's underlyings have none: 0).
    if (withOi) row.push(oi);
    return row;
  });
  return new RawAnswer(JSON.stringify(rows), 'application/json; charset=utf-8');
}
