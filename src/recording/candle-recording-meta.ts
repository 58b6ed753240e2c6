import { z } from 'zod';
import { holidaysSchema } from '../api/schemas/utilities.ts';
import { CANDLE_INTERVALS } from '../domain/candle.ts';
import { EXCHANGES } from '../domain/order-params.ts';

/** `meta.json`'s `format` for a candle recording (a tick recording says `tiqs-runner-recording`). */
export const CANDLE_RECORDING_FORMAT = 'tiqs-runner-candles';

const istDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'an IST date YYYY-MM-DD');

/** One instrument of a candle recording, as the instrument master describes it. */
const candleInstrumentSchema = z.object({
  token: z.number().int().positive(),
  exchange: z.enum(EXCHANGES),
  symbol: z.string().min(1),
  /** Tick size, paise. */
  tickSize: z.number().int().positive(),
  lotSize: z.number().int().positive(),
  /**
   * Where this instrument's bars came from, when a folder mixes sources (an import beside a
   * `history` download); absent: the meta's `source`.
   */
  source: z.enum(['service', 'simulator', 'import']).optional(),
});
/** One instrument of a candle recording. */
export type CandleInstrument = z.infer<typeof candleInstrumentSchema>;

/** Where a candle recording's bars came from. */
const CANDLE_SOURCES = ['service', 'simulator', 'import'] as const;
/** Where a candle recording's bars came from. */
export type CandleSource = (typeof CANDLE_SOURCES)[number];

/**
 * `meta.json` of a candle recording folder (/work/candle-format.md): the interval, the
 * dates asked, the span and count of bars present, the instruments and the calendar.
 */
export const candleRecordingMetaSchema = z.object({
  format: z.literal(CANDLE_RECORDING_FORMAT),
  version: z.literal(1),
  interval: z.enum(CANDLE_INTERVALS),
  /** IST dates asked, both inclusive. */
  from: istDate,
  to: istDate,
  /**
   * First bar's start .. last bar's end, epoch ms (and ISO for people). Until `complete`,
   * or when there is no bar at all, the span asked: `from` 00:00 IST .. the day after `to`.
   */
  startMs: z.number(),
  endMs: z.number(),
  start: z.string(),
  end: z.string(),
  instruments: z.array(candleInstrumentSchema),
  /** The calendar as the source served it, or as derived from the data; null if unknown. */
  holidays: holidaysSchema.nullable(),
  source: z.enum(CANDLE_SOURCES),
  /** Total bars across all tokens; 0 until `complete`. */
  bars: z.number().int().nonnegative(),
  /**
   * Bars by token (`"3045": 187500`), counted at `finish`: a token with 0 bars is data the
   * recording lacks (the backtest's missing-data check). Absent in older recordings.
   */
  barsByToken: z.record(z.string(), z.number().int().nonnegative()).optional(),
  /** False while a download is unfinished. */
  complete: z.boolean(),
  note: z.string().optional(),
});

/** `meta.json` of a candle recording folder. */
export type CandleRecordingMeta = z.infer<typeof candleRecordingMetaSchema>;
