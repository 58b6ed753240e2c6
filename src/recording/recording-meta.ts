import { z } from 'zod';
import { holidaysSchema } from '../api/schemas/utilities.ts';

const chainEntry = z.object({
  exchange: z.string(),
  symbol: z.string(),
  token: z.string(),
  optionType: z.enum(['CE', 'PE']),
  strikePrice: z.string(),
  pricePrecision: z.string(),
  tickSize: z.string(),
  lotSize: z.string(),
});

/** `meta.json` of a recording folder: what the quote file cannot hold. */
export const recordingMetaSchema = z.object({
  format: z.literal('tiqs-runner-recording'),
  version: z.literal(1),
  /** Name of the quote file in the folder: `quotes.bin` or gzip'd `quotes.bin.gz`. */
  quoteFile: z.string(),
  /** First and last instant covered, epoch ms. */
  startMs: z.number(),
  endMs: z.number(),
  /** Same, ISO text, for people. */
  start: z.string(),
  end: z.string(),
  records: z.number().int().nonnegative(),
  /** The calendar as the source served it (last answer), or null if never asked. */
  holidays: holidaysSchema.nullable(),
  /** Answers of the option-chain-symbols operation, by request time. */
  chainSymbols: z.array(
    z.object({ at: z.number(), symbols: z.record(z.string(), z.array(z.string())) }),
  ),
  /** Answers of the option-chain operation, by request time and request. */
  chains: z.array(
    z.object({
      at: z.number(),
      request: z.object({
        token: z.string(),
        exchange: z.string(),
        count: z.string(),
        expiry: z.string(),
      }),
      entries: z.array(chainEntry),
    }),
  ),
  /** How the data was produced (free text). */
  note: z.string().optional(),
  /**
   * Tokens with at least one record, ascending: what a backtest checks its strategies'
   * subscriptions against without reading the records. Absent in older recordings.
   */
  tokens: z.array(z.number().int()).optional(),
});

/** `meta.json` of a recording folder. */
export type RecordingMeta = z.infer<typeof recordingMetaSchema>;
