import { z } from 'zod';
import { IST_OFFSET_MS } from '../../domain/ist.ts';
import { InvalidResponseError } from '../errors/invalid-response-error.ts';
import { zodPath } from '../zod-path.ts';

/** `2023-05-02T00:00:00+0530`: IST with an offset that has no colon (api-facts.md). */
const candleTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:?\d{2}$/, 'expected a candle time');
const int = z.number().int();

/** One row of `GET /candle/...`: `[time, open, high, low, close, volume]`, `[…, oi]` with `oi=1`. */
const candleRowSchema = z.union([
  z.tuple([candleTime, int, int, int, int, z.number()]),
  z.tuple([candleTime, int, int, int, int, z.number(), z.number()]),
]);

/** A candle row read: its time in epoch ms, prices in paise. */
export interface CandleRow {
  readonly time: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volume: number;
  readonly oi?: number;
}

/** Rows read: each wire row as a {@link CandleRow}. */
export const candleRowsSchema = z.array(candleRowSchema).transform((rows) =>
  rows.map(
    ([time, open, high, low, close, volume, oi]): CandleRow => ({
      time: parseCandleTime(time),
      open,
      high,
      low,
      close,
      volume,
      ...(oi === undefined ? {} : { oi }),
    }),
  ),
);

/** Epoch ms of a candle time: `+0530` gets its colon so `Date.parse` reads it. */
function parseCandleTime(text: string): number {
  return Date.parse(text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
}

/** `YYYY-MM-DDTHH:MM:SS` in IST without an offset: the endpoint's `from`/`to`. */
export function formatCandleQueryTime(ms: number): string {
  return new Date(ms + IST_OFFSET_MS).toISOString().slice(0, 19);
}

/** `YYYY-MM-DDTHH:MM:SS+0530`: a row's time as the service writes it (the simulator uses it). */
export function formatCandleTime(ms: number): string {
  return `${formatCandleQueryTime(ms)}+0530`;
}

/**
 * Reads the endpoint's body, a **bare JSON array** (no `{data, status}` envelope), into
 * rows; `undefined` when the body is no array (an error envelope, read the usual way).
 * A row off the documented shape is an {@link InvalidResponseError}.
 *
 * @example
 * ```ts
 * readCandleRows('candles', '[["2023-05-02T09:15:00+0530",58000,58100,57900,58050,1200]]');
 * // [{ time: 1683000300000, open: 58000, high: 58100, low: 57900, close: 58050, volume: 1200 }]
 * ```
 */
export function readCandleRows(operation: string, text: string): CandleRow[] | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(body)) return undefined;
  const parsed = candleRowsSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = zodPath('body', issue?.path ?? []);
    throw new InvalidResponseError(
      `${operation}: invalid candle row at ${path}: ${issue?.message ?? 'does not match'}`,
      { operation, status: 200, path },
    );
  }
  return parsed.data;
}
