import type { Logger } from 'pino';
import { defer, type Observable, type Subscription } from 'rxjs';
import type { CalendarSource } from '../calendar/schedules.ts';
import type { TradingCalendar } from '../calendar/trading-calendar.ts';
import type { Clock } from '../clock/clock.ts';
import type { OrderIntent } from '../domain/intents.ts';
import type { Position } from '../domain/order-events.ts';
import type { ExecutionEngine } from '../execution/execution-engine.ts';
import type { CandleHub } from '../market-data/candles/candle-hub.ts';
import type { InstrumentLookup } from '../market-data/instruments/instrument-master.ts';
import type { MarketFeed } from '../market-data/market-feed.ts';
import type { MarketSource } from '../market-data/market-source.ts';
import { resolveOptionChain } from '../market-data/options/option-chain-resolver.ts';
import { StrategyMarket } from '../market-data/strategy-market.ts';
import { buildContext } from '../strategy/build-context.ts';
import { checkIntent, InvalidIntentError } from '../strategy/check-intent.ts';
import { lastAutoIdNumber } from '../strategy/intent-factory.ts';
import type { LoadedStrategy } from '../strategy/load-strategy.ts';
import type { PlotPoint } from '../strategy/strategy-context.ts';

/** A strategy's run status. */
export type StrategyStatus = 'running' | 'failed' | 'stopped';

/** What every strategy is wired to; the same for all of them. */
export interface StrategyWiring {
  clock: Clock;
  calendar$: CalendarSource;
  feed: MarketFeed;
  /** Candles over `feed` (`ctx.market.candles$`), one hub for every strategy. */
  candles?: CandleHub;
  /** Option chains are resolved against it. */
  quoteSource: MarketSource;
  engine: ExecutionEngine;
  positions$: Observable<Position[]>;
  logger: Logger;
  /** The instrument master (`ctx.instruments`); none: every lookup misses. */
  instruments?: InstrumentLookup;
  /** A checked intent of `strategyId`, to be routed (recorded, described, submitted). */
  route(intent: OrderIntent, strategyId: string): void;
  /** A value a strategy plotted (`ctx.plot`); none: plots are only logged. */
  plot?(point: PlotPoint): void;
}

/**
 * One strategy at run time: builds its context, subscribes to its intents, checks each
 * one, and hands it on. A strategy that throws, errors or emits a bad intent is stopped
 * alone; the others keep running.
 */
export class StrategyRunner {
  private current: StrategyStatus = 'stopped';
  private subscription: Subscription | undefined;
  private error: unknown;

  constructor(readonly loaded: LoadedStrategy) {}

  /** The strategy's id. */
  get id(): string {
    return this.loaded.id;
  }

  /** Why it failed (what it threw or errored with); undefined unless `failed`. */
  get failure(): unknown {
    return this.error;
  }

  /** Whether it runs, failed or was stopped. */
  get status(): StrategyStatus {
    return this.current;
  }

  /** Builds its context over `wiring` and starts it; a failure marks it failed. */
  start(wiring: StrategyWiring, calendar: TradingCalendar): void {
    const { id } = this;
    const { clock, engine } = wiring;
    const log = wiring.logger.child({ component: 'strategy', strategy: id });
    const fail = (err: unknown) => {
      this.current = 'failed';
      this.error = err;
      this.subscription?.unsubscribe();
      log.error({ err }, 'strategy failed and was stopped; the others keep running');
    };
    try {
      const ctx = buildContext({
        strategyId: id,
        params: this.loaded.params,
        clock,
        calendar,
        calendar$: wiring.calendar$,
        // Its own view: health$ carries the events of the tokens this strategy asked for.
        market: StrategyMarket.of(wiring.feed, clock, id, wiring.candles),
        options: {
          chain$: (request) => defer(() => resolveOptionChain(wiring.quoteSource, clock, request)),
        },
        orderEvents$: engine.events$,
        positions$: wiring.positions$,
        logger: wiring.logger,
        instruments: wiring.instruments,
        plot: wiring.plot?.bind(wiring),
        // Automatic ids continue after those the journal remembers (restarts).
        intentSeq: lastAutoIdNumber(engine.orders(id).map((o) => o.intentId)),
        // ctx.position / ctx.openOrders read the engine's book and tracker as they are now.
        state: {
          position: (strategyId, token) => engine.positions.position(strategyId, token),
          openOrders: (strategyId, token) => engine.openOrders(strategyId, token),
        },
      });
      this.current = 'running';
      this.subscription = this.loaded.definition.setup(ctx).subscribe({
        next: (emitted: unknown) => {
          if (this.current !== 'running') return;
          const checked = checkIntent(emitted);
          if (!checked.ok) {
            fail(new InvalidIntentError(id, checked.problem));
            return;
          }
          log.info({ intent: checked.intent }, 'intent');
          wiring.route(checked.intent, id);
        },
        error: fail,
        complete: () => log.info('strategy stream completed'),
      });
      // A strategy that failed while subscribing (a bad first emission) is cut off now;
      // `fail` ran inside `subscribe`, which the compiler's narrowing cannot see.
      if ((this.current as StrategyStatus) === 'failed') this.subscription.unsubscribe();
    } catch (err) {
      fail(err);
    }
  }

  /** Stops it: no more intents are taken from it. A failed strategy stays failed. */
  stop(): void {
    this.subscription?.unsubscribe();
    if (this.current === 'running') this.current = 'stopped';
  }
}
