import { describe, expect, it } from 'vitest';
import { chargesOf, costModel, DEFAULT_COSTS, percentOf, segmentOf } from './cost-model.ts';

describe('Indian cost model', () => {
  it('classifies segments', () => {
    expect(segmentOf('NSE', 'SBIN-EQ', 'I')).toBe('equity-intraday');
    expect(segmentOf('NSE', 'SBIN-EQ', 'C')).toBe('equity-delivery');
    expect(segmentOf('NFO', 'NIFTY25NOV2526000CE', 'I')).toBe('options');
    expect(segmentOf('NFO', 'NIFTY24NOV26C26000', 'M')).toBe('options');
    expect(segmentOf('NFO', 'NIFTY25NOVFUT', 'M')).toBe('futures');
  });

  it('charges an intraday equity round trip as a contract note would (₹1 lakh each way)', () => {
    const turnover = 10_000_000; // ₹1,00,000 in paise
    const buy = chargesOf(
      { exchange: 'NSE', symbol: 'SBIN-EQ', product: 'I', side: 'B', turnover },
      DEFAULT_COSTS,
    );
    // brokerage min(₹20, 0.03% = ₹30) = ₹20; no STT on buy; exchange 0.00297% = ₹2.97;
    // SEBI ₹10/crore = ₹0.10; stamp 0.003% = ₹3; GST 18% of (20 + 2.97 + 0.10) = ₹4.15.
    expect(buy).toEqual({
      brokerage: 2_000,
      stt: 0,
      exchange: 297,
      sebi: 10,
      stamp: 300,
      gst: 415,
      total: 3_022,
    });
    const sell = chargesOf(
      { exchange: 'NSE', symbol: 'SBIN-EQ', product: 'I', side: 'S', turnover },
      DEFAULT_COSTS,
    );
    expect(sell.stt).toBe(2_500); // 0.025% on the sell side
    expect(sell.stamp).toBe(0);
    expect(sell.total).toBe(2_000 + 2_500 + 297 + 10 + 415);
  });

  it('caps brokerage at 0.03% on small orders and charges options on premium', () => {
    const small = chargesOf(
      { exchange: 'NSE', symbol: 'SBIN-EQ', product: 'I', side: 'B', turnover: 1_000_000 },
      DEFAULT_COSTS,
    );
    expect(small.brokerage).toBe(300); // 0.03% of ₹10,000 = ₹3 < ₹20
    const option = chargesOf(
      { exchange: 'NFO', symbol: 'NIFTY24NOV26C26000', product: 'I', side: 'S', turnover: 650_000 },
      DEFAULT_COSTS,
    );
    expect(option.brokerage).toBe(2_000);
    expect(option.stt).toBe(650); // 0.1% of ₹6,500 premium
    expect(option.exchange).toBe(228); // 0.03503% of 650000 = 227.7 → 228
  });

  it('rounds half up to the paisa, exactly, and takes overrides', () => {
    expect(percentOf(50, 1)).toBe(1); // 0.5 → 1
    expect(percentOf(49, 1)).toBe(0);
    expect(percentOf(123_456_789_012, 0.00297)).toBe(3_666_667); // 3666666.63 → exact integer path
    const model = costModel({ 'equity-intraday': { brokerageFlat: 0 } });
    expect(model['equity-intraday'].brokerageFlat).toBe(0);
    expect(model['equity-intraday'].sttSellPercent).toBe(0.025);
    expect(DEFAULT_COSTS['equity-intraday'].brokerageFlat).toBe(20);
  });
});
