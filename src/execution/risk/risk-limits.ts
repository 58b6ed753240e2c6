import type { Paise } from '../../domain/money.ts';

/** Limits the risk gate enforces before anything is sent. Money in paise. */
export interface RiskLimits {
  maxOrderQuantity: number;
  maxOrderValue: Paise;
  maxOpenOrders: number;
  maxPositionPerInstrument: number;
  /** Loss (positive paise) at which the kill switch trips for the rest of the IST day. */
  dailyMaxLoss: Paise;
  /** On a trip, cancel open orders and square off every position. */
  flattenOnKill: boolean;
  /** Market orders become limit orders this many percent beyond the LTP; 0 = off. */
  marketProtectionPercent: number;
  /** Placements allowed per IST day (the service allows 3,000). */
  maxOrdersPerDay: number;
}

/** Permissive defaults, matching the config's. */
export const DEFAULT_RISK_LIMITS: RiskLimits = {
  maxOrderQuantity: 10_000,
  maxOrderValue: 100_000_000,
  maxOpenOrders: 50,
  maxPositionPerInstrument: 10_000,
  dailyMaxLoss: 5_000_000,
  flattenOnKill: true,
  marketProtectionPercent: 0,
  maxOrdersPerDay: 3_000,
};
