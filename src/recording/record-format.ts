/**
 * Byte layout of a recording's quote file (`quotes.bin`), version 1. Little-endian,
 * fixed width per record kind, so a reader walks it sequentially with a `DataView` and no
 * parsing. See docs/backtests.md for the table.
 *
 * File header, {@link HEADER_BYTES} bytes:
 * `magic "TQRC"` (4) · `u16 version` · `u16 header size` · `f64 base time, epoch ms`.
 *
 * Record header, {@link RECORD_HEADER_BYTES} bytes:
 * `u8 kind` · `u8 bid levels` · `u8 ask levels` · `u8 reserved` · `u32 ms since base` ·
 * `i32 token`; then the kind's body.
 */
export const RECORD_MAGIC = 0x43525154; // "TQRC" read as a little-endian u32
/** Format version written by this code. */
export const RECORD_VERSION = 1;
/** Size of the file header. */
export const HEADER_BYTES = 16;
/** Size of every record's header. */
export const RECORD_HEADER_BYTES = 12;

/** What a record holds: a quote of one mode, or option greeks. */
export type RecordKind = 'ltp' | 'ohlcv' | 'full' | 'greeks';

/** Kind codes on disk. */
export const KIND_CODE = { ltp: 1, ohlcv: 2, full: 3, greeks: 4 } as const satisfies Record<
  RecordKind,
  number
>;

/** Kind of each code, index = code. */
export const KIND_OF_CODE: readonly (RecordKind | undefined)[] = [
  undefined,
  'ltp',
  'ohlcv',
  'full',
  'greeks',
];

/** Body sizes: ltp `i32 ltp, i32 close`. */
const LTP_BODY = 8;
/** ohlcv: `i32 open, high, low, close, ltp` · `u32 ltt` · `f64 oi, volume`. */
const OHLCV_BODY = 40;
/**
 * full: `i32 avgPrice, open, high, low, close, ltp, ltq` · `u32 ltt, time` ·
 * `i32 netChange, netChangeIndicator, lowerLimit, upperLimit` ·
 * `f64 oi, oiDayHigh, oiDayLow, totalBuyQty, totalSellQty, volume`; then the levels.
 */
const FULL_FIXED_BODY = 100;
/** One depth level: `i32 price, i32 quantity, i32 orders`; bids first, then asks. */
export const DEPTH_LEVEL_BYTES = 12;
/** greeks: `f64 iv, delta, gamma, theta, vega`. */
const GREEKS_BODY = 40;

/** Largest offset a record's `u32` time can hold: about 49.7 days after the base. */
export const MAX_OFFSET_MS = 0xffff_ffff;

/** Total size of a record of `kind` with the given depth levels. */
export function recordSize(kind: RecordKind, bidLevels = 0, askLevels = 0): number {
  switch (kind) {
    case 'ltp':
      return RECORD_HEADER_BYTES + LTP_BODY;
    case 'ohlcv':
      return RECORD_HEADER_BYTES + OHLCV_BODY;
    case 'full':
      return RECORD_HEADER_BYTES + FULL_FIXED_BODY + (bidLevels + askLevels) * DEPTH_LEVEL_BYTES;
    case 'greeks':
      return RECORD_HEADER_BYTES + GREEKS_BODY;
  }
}
