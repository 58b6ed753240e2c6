import type { Pacer } from '../api/pacing/pacer.ts';
import type { RequestObserver } from '../api/request-observer.ts';
import type { ExecutionObserver } from '../execution/execution-observer.ts';
import type { TickObserver } from '../market-data/tick-observer.ts';

/**
 * Everything a bot tells its metrics (the ops layer implements it; `KernelOptions.observer`):
 * requests to the service, quote answers published, placement stages, and the pacer whose
 * budget is in use. Each hook is optional to the layer that calls it: without an observer
 * nothing is timed.
 *
 * @example
 * ```ts
 * const kernel = await Kernel.create({ config, configFile, logger, observer: metrics.observer });
 * ```
 */
export interface RuntimeObserver extends RequestObserver, TickObserver, ExecutionObserver {
  /** The pacer of the service's credentials, once the HTTP venue has made it. */
  pacing(pacer: Pacer): void;
}
