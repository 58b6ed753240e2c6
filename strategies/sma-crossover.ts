import { distinctUntilChanged, filter, map, mergeMap, type Observable, tap } from 'rxjs';
import { SMA } from 'trading-signals';
import { defineStrategy, type OrderIntent, z } from '../src/index.ts';

const params = z
  .object({
    exchange: z.enum(['NSE', 'BSE']).default('NSE'),
    symbol: z.string().default('SBIN-EQ'),
    /** Periods of the fast and slow moving averages, in candles. */
    fast: z.number().int().min(1).default(5),
    slow: z.number().int().min(2).default(20),
    interval: z.enum(['1m', '3m', '5m', '15m']).default('1m'),
    quantity: z.number().int().positive().default(10),
  })
  .refine((p) => p.fast < p.slow, { message: 'fast must be shorter than slow', path: ['fast'] });

/**
 * Moving-average crossover on one equity: long while the fast SMA of candle closes is
 * above the slow one, flat from the cross back below. Warm from the first live candle
 * (`history`); the framework squares off before the close and refuses entries after it.
 */
export default defineStrategy({
  name: 'sma-crossover',
  params,
  setup(ctx): Observable<OrderIntent> {
    const p = ctx.params;
    const instrument = ctx.instruments.lookup({ exchange: p.exchange, symbol: p.symbol });
    if (instrument === undefined) throw new Error(`${p.symbol} is not in the instrument master`);
    const fast = new SMA(p.fast);
    const slow = new SMA(p.slow);
    return ctx.market.candles$(instrument.token, p.interval, { history: p.slow + 1 }).pipe(
      map((c) => {
        const f = fast.update(c.close, false);
        const s = slow.update(c.close, false);
        return f === null || s === null || !slow.isStable ? undefined : { c, f, s, long: f > s };
      }),
      filter((x) => x !== undefined),
      tap(({ c, f, s }) => {
        if (!c.historical) ctx.plot('sma-fast', f);
        if (!c.historical) ctx.plot('sma-slow', s);
      }),
      // A cross is a change of side; the first warm value only says where we start.
      distinctUntilChanged((a, b) => a.long === b.long),
      filter(({ c }) => !c.historical),
      mergeMap(({ c, f, s, long }) => {
        // Paise, named `…Price` so that readable logs show them in rupees.
        ctx.log.info(
          { close: c.close, fastAvgPrice: f, slowAvgPrice: s },
          long ? 'golden cross' : 'death cross',
        );
        return ctx.intents.target({
          instrument,
          quantity: long ? p.quantity : 0,
          product: 'I',
          reason: `fast SMA crossed ${long ? 'above' : 'below'} slow`,
        });
      }),
    );
  },
});
