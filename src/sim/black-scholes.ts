/** Inputs of {@link blackScholes}. Prices in rupees (floats: this is model space). */
export interface BlackScholesInput {
  type: 'CE' | 'PE';
  /** Underlying price. */
  spot: number;
  strike: number;
  /** Time to expiry, years. */
  years: number;
  /** Annualised volatility as a fraction (0.15 = 15%). */
  vol: number;
  /** Continuously compounded risk-free rate. */
  rate: number;
}

/**
 * Price and greeks of a European option. `theta` is per calendar day and `vega` per one
 * volatility point (0.01), both in rupees, as traders quote them.
 */
export interface BlackScholesResult {
  price: number;
  delta: number;
  gamma: number;
  theta: number;
  vega: number;
}

const SQRT_2PI = Math.sqrt(2 * Math.PI);

function pdf(x: number): number {
  return Math.exp(-0.5 * x * x) / SQRT_2PI;
}

// Abramowitz–Stegun 7.1.26 via erf; absolute error below 1.5e-7, ample for paise prices.
function cdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const poly =
    t *
    (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-z * z);
  return x >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

/**
 * Black–Scholes price and greeks. At or after expiry it returns the intrinsic value with
 * a step delta and zero other greeks.
 *
 * @example
 * ```ts
 * blackScholes({ type: 'CE', spot: 100, strike: 100, years: 1, vol: 0.2, rate: 0 }).price; // ≈ 7.97
 * ```
 */
export function blackScholes(input: BlackScholesInput): BlackScholesResult {
  const { type, spot, strike, years, vol, rate } = input;
  if (years <= 0 || vol <= 0) {
    const intrinsic = type === 'CE' ? Math.max(0, spot - strike) : Math.max(0, strike - spot);
    const itm = type === 'CE' ? spot > strike : spot < strike;
    return {
      price: intrinsic,
      delta: itm ? (type === 'CE' ? 1 : -1) : 0,
      gamma: 0,
      theta: 0,
      vega: 0,
    };
  }
  const sqrtT = Math.sqrt(years);
  const d1 = (Math.log(spot / strike) + (rate + 0.5 * vol * vol) * years) / (vol * sqrtT);
  const d2 = d1 - vol * sqrtT;
  const discount = Math.exp(-rate * years);
  const gamma = pdf(d1) / (spot * vol * sqrtT);
  const vega = (spot * pdf(d1) * sqrtT) / 100;
  const decay = -(spot * pdf(d1) * vol) / (2 * sqrtT);
  if (type === 'CE') {
    const price = spot * cdf(d1) - strike * discount * cdf(d2);
    const theta = (decay - rate * strike * discount * cdf(d2)) / 365;
    return { price, delta: cdf(d1), gamma, theta, vega };
  }
  const price = strike * discount * cdf(-d2) - spot * cdf(-d1);
  const theta = (decay + rate * strike * discount * cdf(-d2)) / 365;
  return { price, delta: cdf(d1) - 1, gamma, theta, vega };
}
