import { z } from 'zod';
import type { Paise } from '../domain/money.ts';
import type { Exchange, Product, TransactionType } from '../domain/order-params.ts';

/** Fee schedule segments. */
export type Segment = 'equity-intraday' | 'equity-delivery' | 'futures' | 'options';

const pct = z.number().min(0).max(100);

/** Rates of one segment. Percentages of turnover; money in rupees. */
const segmentRatesSchema = z.object({
  /** Brokerage per executed order: `min(percent × turnover, flat)`, or `flat` without a percent. */
  brokerageFlat: z.number().min(0),
  brokeragePercent: pct.optional(),
  sttBuyPercent: pct,
  sttSellPercent: pct,
  /** Exchange transaction charge, both sides. */
  exchangePercent: pct,
  /** SEBI turnover fee, rupees per crore (₹1,00,00,000) of turnover, both sides. */
  sebiPerCrore: z.number().min(0),
  /** Stamp duty, buy side only. */
  stampBuyPercent: pct,
  /** GST on brokerage + exchange charge + SEBI fee. */
  gstPercent: pct,
});
/** Rates of one segment. */
type SegmentRates = z.infer<typeof segmentRatesSchema>;

/** The cost model: rates per segment. */
export type CostModel = Record<Segment, SegmentRates>;

/**
 * Defaults: NSE, a discount broker's brokerage (₹20 or 0.03% per executed order,
 * whichever is lower; ₹0 on delivery; ₹20 flat on options), statutory charges as in force
 * from 1 October 2024 (STT per the Finance (No. 2) Act 2024; NSE transaction charges per
 * NSE circular of 2024-09 for the SEBI "true to label" rule; SEBI fee ₹10/crore; stamp
 * duty per the Indian Stamp Act amendment of 1 July 2020; GST 18%). Sources and dates are
 * in docs/backtests.md; every value is configurable in a spec's `backtest.costs`.
 */
export const DEFAULT_COSTS: CostModel = {
  'equity-intraday': {
    brokerageFlat: 20,
    brokeragePercent: 0.03,
    sttBuyPercent: 0,
    sttSellPercent: 0.025,
    exchangePercent: 0.00297,
    sebiPerCrore: 10,
    stampBuyPercent: 0.003,
    gstPercent: 18,
  },
  'equity-delivery': {
    brokerageFlat: 0,
    sttBuyPercent: 0.1,
    sttSellPercent: 0.1,
    exchangePercent: 0.00297,
    sebiPerCrore: 10,
    stampBuyPercent: 0.015,
    gstPercent: 18,
  },
  futures: {
    brokerageFlat: 20,
    brokeragePercent: 0.03,
    sttBuyPercent: 0,
    sttSellPercent: 0.02,
    exchangePercent: 0.00173,
    sebiPerCrore: 10,
    stampBuyPercent: 0.002,
    gstPercent: 18,
  },
  options: {
    brokerageFlat: 20,
    sttBuyPercent: 0,
    sttSellPercent: 0.1,
    exchangePercent: 0.03503,
    sebiPerCrore: 10,
    stampBuyPercent: 0.003,
    gstPercent: 18,
  },
};

/** Overrides of a spec: any rate of any segment. */
export const costOverridesSchema = z
  .object({
    'equity-intraday': segmentRatesSchema.partial().optional(),
    'equity-delivery': segmentRatesSchema.partial().optional(),
    futures: segmentRatesSchema.partial().optional(),
    options: segmentRatesSchema.partial().optional(),
  })
  .strict();
/** Overrides of a spec. */
export type CostOverrides = z.infer<typeof costOverridesSchema>;

/** The default model with `overrides` applied. */
export function costModel(overrides: CostOverrides = {}): CostModel {
  const out = structuredClone(DEFAULT_COSTS);
  for (const seg of Object.keys(out) as Segment[]) {
    const o = overrides[seg];
    if (o === undefined) continue;
    for (const [k, v] of Object.entries(o)) {
      if (v !== undefined) (out[seg] as Record<string, number>)[k] = v;
    }
  }
  return out;
}

/** One executed order as the cost model sees it. */
export interface CostedOrder {
  exchange: Exchange;
  symbol: string;
  product: Product;
  side: TransactionType;
  /** Σ quantity × price of its fills, paise. */
  turnover: Paise;
}

/** Charges of one order, paise, each rounded half up to the paisa. */
export interface Charges {
  brokerage: Paise;
  stt: Paise;
  exchange: Paise;
  sebi: Paise;
  stamp: Paise;
  gst: Paise;
  total: Paise;
}

/** Charges of nothing. */
export const NO_CHARGES: Charges = {
  brokerage: 0,
  stt: 0,
  exchange: 0,
  sebi: 0,
  stamp: 0,
  gst: 0,
  total: 0,
};

/**
 * The segment of an order: F&O exchanges give options when the symbol ends like an
 * option (`…CE`/`…PE`, or the simulator's `…C26000`/`…P26000`), else futures; equity
 * exchanges give intraday for product `I`, else delivery.
 */
export function segmentOf(exchange: Exchange, symbol: string, product: Product): Segment {
  if (exchange === 'NFO' || exchange === 'BFO') {
    return /(CE|PE)$/.test(symbol) || /\d[A-Z]{3}\d{2}[CP]\d+$/.test(symbol)
      ? 'options'
      : 'futures';
  }
  return product === 'I' ? 'equity-intraday' : 'equity-delivery';
}

/**
 * Charges of one executed order (partial fills of one order count as one order for the
 * brokerage cap). Exact integer arithmetic: a rate becomes an integer number of
 * 1e-6 percent and each component is rounded half up to the paisa; GST is taken on the
 * rounded brokerage, exchange charge and SEBI fee.
 *
 * @example
 * ```ts
 * chargesOf({ exchange: 'NSE', symbol: 'SBIN-EQ', product: 'I', side: 'S', turnover: 8_000_000 }, DEFAULT_COSTS);
 * ```
 */
export function chargesOf(order: CostedOrder, model: CostModel): Charges {
  const r = model[segmentOf(order.exchange, order.symbol, order.product)];
  const t = order.turnover;
  const buy = order.side === 'B';
  const flat = Math.round(r.brokerageFlat * 100);
  const brokerage =
    r.brokeragePercent === undefined ? flat : Math.min(flat, percentOf(t, r.brokeragePercent));
  const stt = percentOf(t, buy ? r.sttBuyPercent : r.sttSellPercent);
  const exchange = percentOf(t, r.exchangePercent);
  // ₹X per crore of turnover = X / 1e7 of it = X × 1e-5 percent.
  const sebi = percentOf(t, r.sebiPerCrore * 1e-5);
  const stamp = buy ? percentOf(t, r.stampBuyPercent) : 0;
  const gst = percentOf(brokerage + exchange + sebi, r.gstPercent);
  return {
    brokerage,
    stt,
    exchange,
    sebi,
    stamp,
    gst,
    total: brokerage + stt + exchange + sebi + stamp + gst,
  };
}

/** Sums charges. */
export function addCharges(a: Charges, b: Charges): Charges {
  return {
    brokerage: a.brokerage + b.brokerage,
    stt: a.stt + b.stt,
    exchange: a.exchange + b.exchange,
    sebi: a.sebi + b.sebi,
    stamp: a.stamp + b.stamp,
    gst: a.gst + b.gst,
    total: a.total + b.total,
  };
}

const MICRO = 100_000_000n; // percent (1e2) × 1e-6 steps (1e6)

/** `percent`% of `paise`, rounded half up to the paisa, in exact integer arithmetic. */
export function percentOf(paise: Paise, percent: number): Paise {
  if (paise === 0 || percent === 0) return 0;
  const micro = BigInt(Math.round(percent * 1e6));
  const n = BigInt(Math.round(paise)) * micro;
  return Number((n * 2n + MICRO) / (MICRO * 2n));
}
