import { z } from 'zod';
import type { QuoteMode } from '../../domain/order-params.ts';

const int = z.number().int();

/** One level of market depth (prices in paise). */
const depthEntrySchema = z.object({ orders: int, price: int, quantity: int });
/** One level of market depth (prices in paise). */
export type DepthEntry = z.infer<typeof depthEntrySchema>;

/** Quote in `ltp` mode (spec §2.3). Prices in paise. */
const ltpQuoteSchema = z.object({ token: int, ltp: int, close: int });
/** Quote in `ltp` mode (spec §2.3). Prices in paise. */
export type LtpQuote = z.infer<typeof ltpQuoteSchema>;

/** Quote in `ohlcv` mode (spec §2.2). `ltt` may be 0. */
export const ohlcvQuoteSchema = z.object({
  token: int,
  open: int,
  high: int,
  low: int,
  close: int,
  ltp: int,
  ltt: int,
  oi: int,
  volume: int,
});
/** Quote in `ohlcv` mode (spec §2.2). `ltt` may be 0. */
export type OhlcvQuote = z.infer<typeof ohlcvQuoteSchema>;

/** Quote in `full` mode (spec §2.1), with five levels of depth a side. */
export const fullQuoteSchema = z.object({
  token: int,
  asks: z.array(depthEntrySchema),
  bids: z.array(depthEntrySchema),
  avgPrice: int,
  open: int,
  high: int,
  low: int,
  close: int,
  ltp: int,
  ltq: int,
  ltt: int,
  time: int,
  netChange: int,
  netChangeIndicator: int,
  oi: int,
  oiDayHigh: int,
  oiDayLow: int,
  lowerLimit: int,
  upperLimit: int,
  totalBuyQty: int,
  totalSellQty: int,
  volume: int,
});
/** Quote in `full` mode (spec §2.1), with five levels of depth a side. */
export type FullQuote = z.infer<typeof fullQuoteSchema>;

/** The quote type of each mode. */
export interface QuoteByMode {
  ltp: LtpQuote;
  ohlcv: OhlcvQuote;
  full: FullQuote;
}

/** Quote of mode `M`. */
export type Quote<M extends QuoteMode = QuoteMode> = QuoteByMode[M];

/** Schema of each quote mode. */
export const quoteSchemas = {
  ltp: ltpQuoteSchema,
  ohlcv: ohlcvQuoteSchema,
  full: fullQuoteSchema,
} as const;
