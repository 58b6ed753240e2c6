import type { RunnerConfig } from '../config/config-schema.ts';
import { parseRupees } from '../domain/money.ts';
import { DEFAULT_RISK_LIMITS, type RiskLimits } from '../execution/risk/risk-limits.ts';

/**
 * Risk limits of a config: rupees there, paise here. The daily order budget is not
 * configurable: it is the service's (3,000).
 *
 * @example
 * ```ts
 * riskLimitsOf(config).maxOrderValue; // 500000 rupees in the config → 50_000_000 paise
 * ```
 */
export function riskLimitsOf(config: RunnerConfig): RiskLimits {
  const { risk } = config;
  return {
    maxOrderQuantity: risk.maxOrderQuantity,
    maxOrderValue: parseRupees(String(risk.maxOrderValue)),
    maxOpenOrders: risk.maxOpenOrders,
    maxPositionPerInstrument: risk.maxPositionPerInstrument,
    dailyMaxLoss: parseRupees(String(risk.dailyMaxLoss)),
    flattenOnKill: risk.flattenOnKill,
    marketProtectionPercent: risk.marketProtectionPercent,
    maxOrdersPerDay: DEFAULT_RISK_LIMITS.maxOrdersPerDay,
  };
}
