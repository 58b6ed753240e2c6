import {
  combineLatest,
  EMPTY,
  exhaustMap,
  filter,
  first,
  map,
  merge,
  mergeMap,
  type Observable,
  of,
  take,
  tap,
} from 'rxjs';
import {
  defineStrategy,
  type Instrument,
  type OptionContract,
  type OrderIntent,
  pickByOffset,
  roundToTick,
  z,
} from '../src/index.ts';

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
  /** Each leg's cover-order stop sits this far above its entry premium. */
  stopLossPercent: z.number().positive().max(500).default(30),
  /** Exit both legs when |delta(CE) + delta(PE)| exceeds this (the straddle is no longer neutral). */
  exitDelta: z.number().positive().max(1).default(0.3),
  squareOffMinutes: z.number().int().min(1).default(15),
});

const asInstrument = (c: OptionContract): Instrument => ({
  exchange: 'NFO',
  token: c.token,
  symbol: c.symbol,
  lotSize: c.lotSize,
  tickSize: c.tickSize > 0 ? c.tickSize : 5,
});

/**
 * Index short straddle: at the entry time, sell the at-the-money call and put of the
 * nearest expiry, each a cover order whose stop leg (`bookLossPrice`) caps its loss;
 * exit both when the position's delta drifts past a threshold, and square off before
 * the close.
 */
export default defineStrategy({
  name: 'index-short-straddle',
  params,
  setup(ctx): Observable<OrderIntent> {
    const p = ctx.params;
    let legs: [OptionContract, OptionContract] | undefined;
    let open = false;

    const entry$ = ctx.schedule.at$(p.entryTime).pipe(
      filter(() => !open),
      exhaustMap(() => ctx.market.quote$(p.underlyingToken, 'ltp').pipe(take(1))),
      exhaustMap((spot) =>
        ctx.options
          .chain$({
            underlying: p.underlying,
            underlyingToken: p.underlyingToken,
            expiry: p.expiry,
            count: 10,
          })
          .pipe(map((result) => ({ result, spot: spot.quote.ltp }))),
      ),
      exhaustMap(({ result, spot }): Observable<OrderIntent> => {
        if (!result.ok) {
          ctx.log.warn({ reason: result.reason }, result.message);
          return EMPTY;
        }
        const call = pickByOffset(result.chain.calls, spot, 'CE', 0);
        const put = pickByOffset(result.chain.puts, spot, 'PE', 0);
        if (call === undefined || put === undefined) {
          ctx.log.warn({ spot }, 'no at-the-money strikes in the chain');
          return EMPTY;
        }
        return combineLatest([
          ctx.market.quote$(call.token, 'ltp').pipe(first()),
          ctx.market.quote$(put.token, 'ltp').pipe(first()),
        ]).pipe(
          tap(() => {
            legs = [call, put];
            open = true;
          }),
          mergeMap(([cq, pq]) =>
            of(
              ...[
                [call, cq.quote.ltp],
                [put, pq.quote.ltp],
              ].map(([leg, premium]) => {
                const contract = leg as OptionContract;
                const tick = contract.tickSize > 0 ? contract.tickSize : 5;
                const stop = roundToTick(
                  Math.ceil(((premium as number) * (100 + p.stopLossPercent)) / 100),
                  tick,
                  'up',
                );
                ctx.log.info(
                  { symbol: contract.symbol, premium, stop, spot },
                  'selling straddle leg',
                );
                return ctx.intents.place({
                  instrument: asInstrument(contract),
                  side: 'S',
                  quantity: p.lots * contract.lotSize,
                  orderType: 'MKT',
                  product: 'I',
                  variety: 'cover',
                  bookLossPrice: stop,
                  reason: 'short straddle entry',
                });
              }),
            ),
          ),
        );
      }),
    );

    const deltaExit$ = ctx.schedule.every$(15).pipe(
      filter(() => open && legs !== undefined),
      exhaustMap(() => {
        const [call, put] = legs as [OptionContract, OptionContract];
        return combineLatest([
          ctx.market.greeks$([call.token]).pipe(first()),
          ctx.market.greeks$([put.token]).pipe(first()),
        ]).pipe(take(1));
      }),
      mergeMap(([cg, pg]): Observable<OrderIntent> => {
        const net = cg.greeks.delta + pg.greeks.delta;
        if (!open || Math.abs(net) <= p.exitDelta) return EMPTY;
        open = false;
        ctx.log.info(
          { callDelta: cg.greeks.delta, putDelta: pg.greeks.delta, net },
          'delta drifted: exiting the straddle',
        );
        return of(
          ctx.intents.squareOff(undefined, `net delta ${net.toFixed(2)} beyond ${p.exitDelta}`),
        );
      }),
    );

    const endOfDay$ = ctx.schedule.beforeClose$(p.squareOffMinutes).pipe(
      filter(() => open),
      map(() => {
        open = false;
        return ctx.intents.squareOff(undefined, 'end of day');
      }),
    );

    return merge(entry$, deltaExit$, endOfDay$);
  },
});
