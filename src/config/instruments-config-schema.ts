import { z } from 'zod';
import { DEFAULT_INSTRUMENT_MASTER_FORMAT } from '../api/instrument-master-csv.ts';

const columns = DEFAULT_INSTRUMENT_MASTER_FORMAT.columns;
const header = (name: string) => z.string().min(1).default(name);

/**
 * The `instruments` section: how the service's instrument master (`GET /all`) is read.
 * Its column names and units are inferred, not documented (api-facts.md), so each one can
 * be set here; the defaults are the simulator's.
 */
export const instrumentsConfigSchema = z.strictObject({
  /**
   * Refuse to start when no master can be had (not from the service, nor an earlier
   * day's cached copy). Default false: start, log an error, and `ctx.instruments` misses.
   */
  required: z.boolean().default(false),
  /**
   * How long the start waits for the service's master (all tries together); then an
   * earlier day's copy, or none, stands in. Network time.
   */
  timeoutMs: z.number().int().min(100).max(120_000).default(5_000),
  /** Unit of the `TickSize` column: `paise` (5 = ₹0.05) or `rupees` (0.05). */
  tickUnit: z.enum(['paise', 'rupees']).default(DEFAULT_INSTRUMENT_MASTER_FORMAT.tickUnit),
  /** Unit of the `StrikePrice` column: `rupees` (25800) or `paise` (2580000). */
  strikeUnit: z.enum(['rupees', 'paise']).default(DEFAULT_INSTRUMENT_MASTER_FORMAT.strikeUnit),
  /** Header name of each column the framework reads. */
  columns: z
    .strictObject({
      exchange: header(columns.exchange),
      token: header(columns.token),
      symbol: header(columns.symbol),
      lotSize: header(columns.lotSize),
      tickSize: header(columns.tickSize),
      pricePrecision: header(columns.pricePrecision),
      expiry: header(columns.expiry),
      optionType: header(columns.optionType),
      strike: header(columns.strike),
    })
    .prefault({}),
});
