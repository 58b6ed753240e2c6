import type { Logger } from 'pino';
import { filter, map, type Observable } from 'rxjs';
import {
  atSessionOpen$,
  atTimeIst$,
  beforeClose$,
  type CalendarSource,
  everyWhileOpen$,
} from '../calendar/schedules.ts';
import type { TradingCalendar } from '../calendar/trading-calendar.ts';
import type { Clock } from '../clock/clock.ts';
import type { OrderEvent, Position } from '../domain/order-events.ts';
import {
  type InstrumentLookup,
  InstrumentMaster,
} from '../market-data/instruments/instrument-master.ts';
import { IntentFactory } from './intent-factory.ts';
import type { MarketView, OptionsView, PlotPoint, StrategyContext } from './strategy-context.ts';
import { NO_STATE, type StrategyStateSource, strategyState } from './strategy-state.ts';

/** What the kernel (or a test harness) provides to build a strategy's context. */
export interface ContextDeps {
  strategyId: string;
  params: unknown;
  clock: Clock;
  calendar: TradingCalendar;
  /** The calendar as it refreshes; defaults to the fixed `calendar`. */
  calendar$?: CalendarSource;
  market: MarketView;
  options: OptionsView;
  /** All order events; this strategy's are filtered out of it. */
  orderEvents$: Observable<OrderEvent>;
  /** All positions, re-emitted on change; this strategy's are filtered out of it. */
  positions$: Observable<Position[]>;
  logger: Logger;
  /** Automatic intent ids start after this number (restarts: the journal's highest). */
  intentSeq?: number;
  /** Positions and working orders (`ctx.position`, `ctx.openOrders`); none: flat, no orders. */
  state?: StrategyStateSource;
  /** The instrument master; none: `ctx.instruments` misses every lookup. */
  instruments?: InstrumentLookup | undefined;
  /** Where `ctx.plot` points go (a backtest keeps them for its report); none: logged only. */
  plot?: ((point: PlotPoint) => void) | undefined;
}

/** Builds a {@link StrategyContext}; the same code serves live, paper, backtest and tests. */
export function buildContext<P>(deps: ContextDeps): StrategyContext<P> {
  const { strategyId, clock } = deps;
  const source: CalendarSource = deps.calendar$ ?? deps.calendar;
  const state = strategyState(strategyId, deps.state ?? NO_STATE);
  const log = deps.logger.child({ strategy: strategyId });
  return {
    strategyId,
    params: deps.params as P,
    clock,
    calendar: deps.calendar,
    market: deps.market,
    options: deps.options,
    schedule: {
      atOpen$: () => atSessionOpen$(source, clock),
      beforeClose$: (minutes) => beforeClose$(source, clock, minutes),
      at$: (time) => atTimeIst$(source, clock, time),
      every$: (seconds) => everyWhileOpen$(source, clock, seconds),
    },
    orders$: deps.orderEvents$.pipe(filter((e) => e.strategyId === strategyId)),
    positions$: deps.positions$.pipe(map((ps) => ps.filter((p) => p.strategyId === strategyId))),
    log,
    intents: new IntentFactory(deps.intentSeq ?? 0, state),
    position: state.position,
    openOrders: state.openOrders,
    instruments: deps.instruments ?? InstrumentMaster.empty(),
    plot(name, value) {
      // NaN (an indicator not yet warm) has no place on a chart, nor in JSON.
      if (!Number.isFinite(value)) return;
      log.debug({ plot: name, value }, 'plot');
      deps.plot?.({ strategyId, name, at: clock.now(), value });
    },
  };
}
