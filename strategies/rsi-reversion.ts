import { filter, map, merge, mergeMap, type Observable } from 'rxjs';
import { RSI } from 'trading-signals';
import { defineStrategy, type OrderIntent, z } from '../src/index.ts';

const params = z
  .object({
    exchange: z.enum(['NSE', 'BSE']).default('NSE'),
    /** Each is traded on its own candles, with its own RSI. */
    symbols: z.array(z.string()).min(1).default(['SBIN-EQ', 'RELIANCE-EQ']),
    interval: z.enum(['1m', '3m', '5m', '15m']).default('1m'),
    period: z.number().int().min(2).default(14),
    /** Buy when the RSI closes below this… */
    oversold: z.number().min(0).max(100).default(30),
    /** …and sell out when it closes above this. */
    exitAbove: z.number().min(0).max(100).default(55),
    quantity: z.number().int().positive().default(10),
  })
  .refine((p) => p.oversold < p.exitAbove, { message: 'oversold must be below exitAbove' });

/**
 * RSI mean reversion, long only, on several equities at once: buy a stock whose RSI of
 * candle closes falls below `oversold`, sell out once it recovers above `exitAbove`.
 * Warm at the first live candle (`history`); `target` makes a repeated signal a no-op.
 */
export default defineStrategy({
  name: 'rsi-reversion',
  params,
  setup(ctx): Observable<OrderIntent> {
    const p = ctx.params;
    const streams = p.symbols.map((symbol) => {
      const instrument = ctx.instruments.lookup({ exchange: p.exchange, symbol });
      if (instrument === undefined) throw new Error(`${symbol} is not in the instrument master`);
      const rsi = new RSI(p.period);
      return ctx.market.candles$(instrument.token, p.interval, { history: p.period + 1 }).pipe(
        map((c) => ({ c, value: rsi.update(c.close, false) })),
        filter((x): x is typeof x & { value: number } => x.value !== null && !x.c.historical),
        mergeMap(({ value }) => {
          ctx.plot(`rsi:${symbol}`, value);
          const wanted = value < p.oversold ? p.quantity : value > p.exitAbove ? 0 : undefined;
          if (wanted === undefined) return [];
          const reason = `RSI ${value.toFixed(1)} ${wanted > 0 ? 'oversold' : 'recovered'}`;
          return ctx.intents.target({ instrument, quantity: wanted, product: 'I', reason });
        }),
      );
    });
    return merge(...streams);
  },
});
