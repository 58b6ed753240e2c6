import { flatPosition, type OpenOrder, type Position } from '../domain/order-events.ts';

/**
 * Where a strategy's state is read from: the execution engine at run time (its position
 * book and tracked orders, journal recovery included), or a test's hand-set state.
 */
export interface StrategyStateSource {
  /** The position of `strategyId` in `token`, if it ever had one. */
  position(strategyId: string, token: number): Position | undefined;
  /** The working orders of `strategyId`, in `token` or in every instrument. */
  openOrders(strategyId: string, token?: number): readonly OpenOrder[];
}

/**
 * One strategy's synchronous view of its state (`ctx.position`, `ctx.openOrders`).
 *
 * @example
 * ```ts
 * if (ctx.position(3045).netQuantity === 0 && ctx.openOrders(3045).length === 0) enter();
 * ```
 */
export interface StrategyState {
  /** This strategy's position in `token`; a flat one when there is none. */
  position(token: number): Position;
  /** This strategy's working orders, in `token` or in every instrument. */
  openOrders(token?: number): readonly OpenOrder[];
}

/** A source with no positions and no orders (a context built without an engine). */
export const NO_STATE: StrategyStateSource = {
  position: () => undefined,
  openOrders: () => [],
};

/**
 * The view of `strategyId` over `source`.
 *
 * @example
 * ```ts
 * const state = strategyState('sma', engine);
 * state.position(3045).netQuantity;
 * ```
 */
export function strategyState(strategyId: string, source: StrategyStateSource): StrategyState {
  return {
    position: (token) => source.position(strategyId, token) ?? flatPosition(strategyId, token),
    openOrders: (token) => source.openOrders(strategyId, token),
  };
}
