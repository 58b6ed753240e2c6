import { EMPTY, filter, map, mergeMap, type Observable, of, switchMap, take } from 'rxjs';
import { defineStrategy, type OrderIntent, z } from '../src/index.ts';

const params = z.object({
  exchange: z.enum(['NSE', 'BSE']).default('NSE'),
  symbol: z.string().default('SBIN-EQ'),
  /** Length of the opening range after the session opens. */
  rangeMinutes: z.number().int().min(1).max(120).default(15),
  quantity: z.number().int().positive().default(10),
  /** The stop's distance from the entry's fill, in paise; it trails by as much. */
  stopPoints: z.number().int().positive().default(500),
});

/**
 * Opening-range breakout: the high and low of the 1m candles of the session's first
 * minutes, then a long on a close above or a short on a close below, once a session, as a
 * bracket whose stop trails the price. The framework squares it off before the close.
 */
export default defineStrategy({
  name: 'opening-range-breakout',
  params,
  setup(ctx): Observable<OrderIntent> {
    const p = ctx.params;
    const instrument = ctx.instruments.lookup({ exchange: p.exchange, symbol: p.symbol });
    if (instrument === undefined) throw new Error(`${p.symbol} is not in the instrument master`);
    return ctx.schedule.atOpen$().pipe(
      switchMap((open) => {
        const rangeEnd = open.at + p.rangeMinutes * 60_000;
        let [high, low] = [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY];
        return ctx.market.candles$(instrument.token, '1m').pipe(
          filter((c) => c.start >= open.at),
          mergeMap((c) => {
            if (c.end <= rangeEnd) [high, low] = [Math.max(high, c.high), Math.min(low, c.low)];
            // No range (started late): no trade this session.
            if (c.end <= rangeEnd || !Number.isFinite(high)) return EMPTY;
            return c.close > high ? of('B' as const) : c.close < low ? of('S' as const) : EMPTY;
          }),
          take(1),
          map((side) => {
            ctx.log.info({ high, low, side }, 'opening range broken');
            return ctx.intents.bracket({
              instrument,
              side,
              quantity: p.quantity,
              product: 'I',
              entry: { orderType: 'MKT' },
              stopLoss: { points: p.stopPoints },
              trailing: { points: p.stopPoints },
              reason: `break of the ${p.rangeMinutes}-minute range`,
            });
          }),
        );
      }),
    );
  },
});
