import { filter, map, merge, mergeMap, type Observable, of, withLatestFrom } from 'rxjs';
import { SMA } from 'trading-signals';
import { defineStrategy, type Instrument, type OrderIntent, z } from '../src/index.ts';

const params = z
  .object({
    /** Instrument token (SBIN on NSE by default). */
    token: z.number().int().positive().default(3045),
    symbol: z.string().default('SBIN-EQ'),
    exchange: z.enum(['NSE', 'BSE']).default('NSE'),
    /** Periods of the fast and slow moving averages, in bars. */
    fast: z.number().int().min(1).default(5),
    slow: z.number().int().min(2).default(20),
    /** Bar length: the LTP is sampled once per bar while the market is open. */
    barSeconds: z.number().int().min(1).default(60),
    quantity: z.number().int().positive().default(10),
    /** Flatten this many minutes before the close. */
    squareOffMinutes: z.number().int().min(1).default(10),
  })
  .refine((p) => p.fast < p.slow, { message: 'fast must be shorter than slow', path: ['fast'] });

/**
 * Moving-average crossover on one equity: buy when the fast SMA of bar closes crosses
 * above the slow one, sell out when it crosses back below, flat before the close.
 * Indicators come from trading-signals.
 */
export default defineStrategy({
  name: 'sma-crossover',
  params,
  setup(ctx): Observable<OrderIntent> {
    const p = ctx.params;
    const instrument: Instrument = {
      exchange: p.exchange,
      token: p.token,
      symbol: p.symbol,
    };
    const fast = new SMA(p.fast);
    const slow = new SMA(p.slow);
    let previous: number | undefined;
    let long = false;
    /** Intents in flight and what a refusal of each would undo. */
    const inFlight = new Map<string, 'entry' | 'exit'>();
    const sent = (intent: OrderIntent, role: 'entry' | 'exit'): OrderIntent => {
      inFlight.set(intent.id, role);
      return intent;
    };
    // An entry that is rejected or denied leaves us flat; a refused exit leaves us long.
    const refusals$ = ctx.orders$.pipe(
      filter((e) => e.type === 'OrderRejected' || e.type === 'OrderDenied'),
      mergeMap((e): Observable<OrderIntent> => {
        const role = inFlight.get(e.intentId);
        inFlight.delete(e.intentId);
        if (role === 'entry') long = false;
        if (role === 'exit') long = true;
        return of();
      }),
    );

    const bars$ = ctx.schedule.every$(p.barSeconds).pipe(
      withLatestFrom(ctx.market.quote$(p.token, 'ltp')),
      map(([, q]) => q.quote.ltp),
    );

    const signals$ = bars$.pipe(
      mergeMap((close): Observable<OrderIntent> => {
        const f = fast.update(close, false);
        const s = slow.update(close, false);
        if (f === null || s === null || !slow.isStable) return of();
        const diff = f - s;
        const before = previous;
        previous = diff;
        if (before === undefined) return of();
        if (before <= 0 && diff > 0 && !long) {
          long = true;
          ctx.log.info({ close, fast: f, slow: s }, 'golden cross: buying');
          const order = ctx.intents.place({
            instrument,
            side: 'B',
            quantity: p.quantity,
            orderType: 'MKT',
            product: 'I',
            reason: 'fast SMA crossed above slow',
          });
          return of(sent(order, 'entry'));
        }
        if (before >= 0 && diff < 0 && long) {
          long = false;
          ctx.log.info({ close, fast: f, slow: s }, 'death cross: selling');
          const order = ctx.intents.place({
            instrument,
            side: 'S',
            quantity: p.quantity,
            orderType: 'MKT',
            product: 'I',
            reason: 'fast SMA crossed below slow',
          });
          return of(sent(order, 'exit'));
        }
        return of();
      }),
    );

    const endOfDay$ = ctx.schedule.beforeClose$(p.squareOffMinutes).pipe(
      filter(() => long),
      map(() => {
        long = false;
        return ctx.intents.squareOff(instrument.token, 'end of day');
      }),
    );

    return merge(signals$, endOfDay$, refusals$);
  },
});
