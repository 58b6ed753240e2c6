import {
  filter,
  map,
  merge,
  mergeMap,
  type Observable,
  of,
  switchMap,
  takeUntil,
  timer,
} from 'rxjs';
import { defineStrategy, type Instrument, type OrderIntent, z } from '../src/index.ts';

const params = z.object({
  token: z.number().int().positive().default(3045),
  symbol: z.string().default('SBIN-EQ'),
  exchange: z.enum(['NSE', 'BSE']).default('NSE'),
  /** Length of the opening range after the session opens. */
  rangeMinutes: z.number().int().min(1).max(120).default(15),
  quantity: z.number().int().positive().default(10),
  /** Flatten this many minutes before the close. */
  squareOffMinutes: z.number().int().min(1).default(15),
});

/**
 * Opening-range breakout: record the high and low of the LTP for the first minutes of
 * each session, then go long on a break above or short on a break below, once per
 * session, and square off before the close.
 */
export default defineStrategy({
  name: 'opening-range-breakout',
  params,
  setup(ctx): Observable<OrderIntent> {
    const p = ctx.params;
    const instrument: Instrument = {
      exchange: p.exchange,
      token: p.token,
      symbol: p.symbol,
    };
    const quotes$ = ctx.market.quote$(p.token, 'ltp');
    let inPosition = false;

    const sessions$ = ctx.schedule.atOpen$().pipe(
      switchMap((open) => {
        let high = Number.NEGATIVE_INFINITY;
        let low = Number.POSITIVE_INFINITY;
        let traded = false;
        const rangeEnd = open.at + p.rangeMinutes * 60_000;
        const sessionEnd$ = timer(
          Math.max(0, (open.session?.end ?? rangeEnd) - ctx.clock.now()),
          ctx.clock.scheduler,
        );
        return quotes$.pipe(
          takeUntil(sessionEnd$),
          // The bus replays its last quote to a new subscriber; one from before the open
          // must not widen the range.
          filter((q) => q.receivedAt >= open.at),
          map((q) => q.quote.ltp),
          mergeMap((ltp): Observable<OrderIntent> => {
            if (ctx.clock.now() < rangeEnd) {
              high = Math.max(high, ltp);
              low = Math.min(low, ltp);
              return of();
            }
            if (traded || !Number.isFinite(high)) return of();
            const side = ltp > high ? 'B' : ltp < low ? 'S' : undefined;
            if (side === undefined) return of();
            traded = true;
            inPosition = true;
            ctx.log.info({ ltp, high, low, side }, 'opening range broken');
            return of(
              ctx.intents.place({
                instrument,
                side,
                quantity: p.quantity,
                orderType: 'MKT',
                product: 'I',
                reason: `break of the ${p.rangeMinutes}-minute range`,
              }),
            );
          }),
        );
      }),
    );

    const endOfDay$ = ctx.schedule.beforeClose$(p.squareOffMinutes).pipe(
      filter(() => inPosition),
      map(() => {
        inPosition = false;
        return ctx.intents.squareOff(instrument.token, 'end of day');
      }),
    );

    return merge(sessions$, endOfDay$);
  },
});
