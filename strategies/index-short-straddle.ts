import {
  combineLatest,
  EMPTY,
  exhaustMap,
  filter,
  first,
  from,
  map,
  merge,
  mergeMap,
  type Observable,
} from 'rxjs';
import { defineStrategy, type OrderIntent, pickByOffset, roundToTick, z } from '../src/index.ts';

const params = z.object({
  underlying: z.string().default('NIFTY'),
  underlyingToken: z.number().int().positive().default(26000),
  expiry: z.enum(['weekly', 'monthly']).default('weekly'),
  /** Entry time, IST. */
  entryTime: z
    .string()
    .regex(/^\d{2}:\d{2}$/)
    .default('09:20'),
  lots: z.number().int().positive().default(1),
  /** Each leg's stop sits this far above its entry premium. */
  stopLossPercent: z.number().positive().max(500).default(30),
  /** Exit both legs when |delta(CE) + delta(PE)| exceeds this (no longer neutral). */
  exitDelta: z.number().positive().max(1).default(0.3),
});

/**
 * Index short straddle: at the entry time, sell the at-the-money call and put of the
 * nearest expiry, each a bracket whose stop caps its loss (lot and tick size from the
 * instrument master); exit both when the net delta drifts past a threshold. The
 * framework squares off before the close.
 */
export default defineStrategy({
  name: 'index-short-straddle',
  params,
  setup(ctx): Observable<OrderIntent> {
    const p = ctx.params;
    /** Tokens of the legs sold today (which contracts, not whether they are open). */
    let legs: number[] = [];
    const short = (): boolean => legs.some((t) => ctx.position(t).netQuantity !== 0);

    const entry$ = ctx.schedule.at$(p.entryTime).pipe(
      exhaustMap(() => ctx.market.quote$(p.underlyingToken, 'ltp').pipe(first())),
      exhaustMap((spot) => {
        const { underlying, underlyingToken, expiry } = p;
        const chain$ = ctx.options.chain$({ underlying, underlyingToken, expiry, count: 10 });
        return chain$.pipe(map((result) => ({ result, spot: spot.quote.ltp })));
      }),
      exhaustMap(({ result, spot }): Observable<OrderIntent> => {
        if (!result.ok) {
          ctx.log.warn({ reason: result.reason }, result.message);
          return EMPTY;
        }
        const call = pickByOffset(result.chain.calls, spot, 'CE', 0);
        const put = pickByOffset(result.chain.puts, spot, 'PE', 0);
        const found = [call, put].flatMap((c) => {
          const instrument = c && ctx.instruments.byToken(c.token);
          return instrument === undefined ? [] : [instrument];
        });
        if (found.length < 2 || found.some((i) => ctx.position(i.token).netQuantity !== 0)) {
          ctx.log.warn({ spot }, 'no at-the-money legs in the master, or already short');
          return EMPTY;
        }
        legs = found.map((i) => i.token);
        return from(found).pipe(
          mergeMap((instrument) =>
            ctx.market.quote$(instrument.token, 'ltp').pipe(
              first(),
              map(({ quote }) => {
                const raw = Math.ceil((quote.ltp * p.stopLossPercent) / 100);
                const points = roundToTick(raw, instrument.tickSize ?? 1, 'up');
                const { symbol } = instrument;
                ctx.log.info({ symbol, premium: quote.ltp, points, spot }, 'selling a leg');
                return ctx.intents.bracket({
                  instrument,
                  side: 'S',
                  quantity: p.lots * (instrument.lotSize ?? 1),
                  product: 'I',
                  entry: { orderType: 'MKT' },
                  stopLoss: { points },
                  reason: 'short straddle leg',
                });
              }),
            ),
          ),
        );
      }),
    );

    const deltaExit$ = ctx.schedule.every$(15).pipe(
      filter(short),
      exhaustMap(() => combineLatest(legs.map((t) => ctx.market.greeks$([t]).pipe(first())))),
      map((greeks) => greeks.reduce((net, g) => net + g.greeks.delta, 0)),
      filter((net) => short() && Math.abs(net) > p.exitDelta),
      map((net) =>
        ctx.intents.squareOff(undefined, `net delta ${net.toFixed(2)} beyond ${p.exitDelta}`),
      ),
    );

    return merge(entry$, deltaExit$);
  },
});
