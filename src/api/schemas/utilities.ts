import { z } from 'zod';
import { dateKey, decimalText, expiryText, integerText, timeRangeText } from './formats.ts';

/** Holidays of the current year and extra sessions (spec §2.8). */
export const holidaysSchema = z.object({
  holidays: z.record(dateKey, z.string()),
  specialTradingDays: z.record(dateKey, z.array(timeRangeText)),
});
/** Holidays of the current year and extra sessions (spec §2.8). */
export type Holidays = z.infer<typeof holidaysSchema>;

/** An exchange index (spec §2.8). */
export const indexRecordSchema = z.object({ name: z.string(), token: z.string() });
/** An exchange index (spec §2.8). */
export type IndexRecord = z.infer<typeof indexRecordSchema>;

/** Underlying symbol to its expiries, `DD-MON-YYYY`. */
export const optionChainSymbolsSchema = z.record(z.string(), z.array(expiryText));
/** Underlying symbol to its expiries, `DD-MON-YYYY`. */
export type OptionChainSymbols = z.infer<typeof optionChainSymbolsSchema>;

/** One entry of an option chain (spec §2.7). */
export const optionChainEntrySchema = z.object({
  exchange: z.string(),
  symbol: z.string(),
  token: z.string(),
  optionType: z.enum(['CE', 'PE']),
  strikePrice: decimalText,
  pricePrecision: integerText,
  tickSize: decimalText,
  lotSize: integerText,
});
/** One entry of an option chain (spec §2.7). */
export type OptionChainEntry = z.infer<typeof optionChainEntrySchema>;

/** Body of `POST /info/option-chain`. */
export const optionChainRequestSchema = z.object({
  token: z.string().regex(/^\d+$/, 'expected a numeric token as text'),
  exchange: z.string().min(1),
  count: z.string().regex(/^[1-9]\d*$/, 'expected a positive integer as text'),
  expiry: expiryText,
});
/** Body of `POST /info/option-chain`. */
export type OptionChainRequest = z.infer<typeof optionChainRequestSchema>;

/** Option greeks of one token; `iv` is a fraction (0.15 = 15%). */
export const greeksSchema = z.object({
  iv: z.number(),
  delta: z.number(),
  gamma: z.number(),
  theta: z.number(),
  vega: z.number(),
});
/** Option greeks of one token; `iv` is a fraction (0.15 = 15%). */
export type Greeks = z.infer<typeof greeksSchema>;

/** Body of the list-quote and greeks operations: integer tokens. */
export const tokenListSchema = z.array(z.number().int().nonnegative()).min(1);
