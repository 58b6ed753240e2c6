import type { Observable } from 'rxjs';
import type { z } from 'zod';
import type { OrderIntent } from '../domain/intents.ts';
import type { StrategyContext } from './strategy-context.ts';

/**
 * A strategy plugin: a name, a params schema with defaults, and a `setup` that turns a
 * context into a stream of intents. It never touches HTTP, timers or `Date.now`.
 *
 * @example
 * ```ts
 * export default defineStrategy({
 *   name: 'buy-the-open',
 *   params: z.object({ token: z.number().int().default(3045), qty: z.number().int().default(1) }),
 *   setup: (ctx) => ctx.schedule.atOpen$().pipe(
 *     map(() => ctx.intents.place({ instrument: sbin, side: 'B', quantity: ctx.params.qty, orderType: 'MKT', product: 'I' })),
 *   ),
 * });
 * ```
 */
export interface StrategyDefinition<S extends z.ZodType = z.ZodType> {
  /** Kind of strategy, e.g. `sma-crossover`. Instances get their own ids in the config. */
  name: string;
  /** Schema of the params, with defaults; config values override them. */
  params: S;
  /** Called once per instance at start; the stream ends when the instance stops. */
  setup(ctx: StrategyContext<z.infer<S>>): Observable<OrderIntent>;
}

/** Identity function that gives a strategy plugin its types. */
export function defineStrategy<S extends z.ZodType>(
  definition: StrategyDefinition<S>,
): StrategyDefinition<S> {
  return definition;
}
