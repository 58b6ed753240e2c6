import type { Paise } from '../../domain/money.ts';
import type { PriceBand } from '../engine/venue-market.ts';
import type { PathState } from './price-paths.ts';

/** Everything a quote of one instrument shows, at the market's time. */
export interface Snapshot {
  ltp: Paise;
  prevClose: Paise;
  open: Paise;
  high: Paise;
  low: Paise;
  volume: number;
  avgPrice: Paise;
  ltq: number;
  ltt: number;
  band: PriceBand;
  oi: number;
  oiDayHigh: number;
  oiDayLow: number;
}

/** Snapshot of an unknown instrument (or an option without its underlying). */
export const ZERO_SNAPSHOT: Snapshot = {
  ltp: 0,
  prevClose: 0,
  open: 0,
  high: 0,
  low: 0,
  volume: 0,
  avgPrice: 0,
  ltq: 0,
  ltt: 0,
  band: { lower: 0, upper: 0 },
  oi: 0,
  oiDayHigh: 0,
  oiDayLow: 0,
};

/** Snapshot of an underlying from its path; underlyings carry no open interest. */
export function pathSnapshot(path: PathState): Snapshot {
  return {
    ...path,
    avgPrice: path.volume > 0 ? Math.round(path.turnover / path.volume) : 0,
    oi: 0,
    oiDayHigh: 0,
    oiDayLow: 0,
  };
}
