import { sleep } from '../clock/sleep.ts';
import { cancelAtStop } from './cancel-at-stop.ts';
import type { EngineCore } from './engine-core.ts';
import type { ShutdownOptions } from './engine-options.ts';
import { exposureOf } from './exposure.ts';
import { runShutdown, type ShutdownReport } from './run-shutdown.ts';
import type { ShutdownPolicy } from './shutdown-policy.ts';
import { squareOff } from './square-off.ts';
import type { TrackedOrder } from './tracked-order.ts';
import { untilAborted } from './until-aborted.ts';

/** What a stop needs beyond the shared core. */
export interface EngineStopDeps {
  core: EngineCore;
  /** Placements under way, waited for before cancelling. */
  submitting: ReadonlySet<Promise<void>>;
  /** Takes no more intents and drops the deferred ones; returns what that leaves undone. */
  stopAccepting: () => string[];
  /** Attempts the stop counted as not placed. */
  notPlaced: () => TrackedOrder[];
}

/**
 * Stops the engine for good under a shutdown policy, within the budget of
 * `options.signal`: takes no more intents, stops tracking, then lets
 * {@link runShutdown} cancel, verify and square off against the book. A dropped exit
 * or square-off is as undone as an unconfirmed cancel: it joins `unfinished`.
 */
export async function stopEngine(
  deps: EngineStopDeps,
  policy: ShutdownPolicy,
  options: ShutdownOptions = {},
): Promise<ShutdownReport> {
  const { core, submitting } = deps;
  const { tracker, positions } = core;
  const signal = options.signal ?? new AbortController().signal;
  const dropped = deps.stopAccepting();
  const stopped = tracker.stop();
  const { clock, broker, logger } = core.options;
  const report = await runShutdown(
    {
      logger,
      inFlight: () => submitting.size,
      settleSubmissions: () => Promise.allSettled([...submitting]),
      readBooks: async () => {
        await tracker.poll();
        return tracker.lastReadOk;
      },
      active: () => tracker.active(),
      netPosition: (strategyId, token) =>
        exposureOf(positions, tracker, strategyId, token).position,
      parentFilled: (leg) => {
        const parent = tracker.byIntent(leg.strategyId, leg.intentId.replace(/\/stop$/, ''));
        return parent === undefined || parent === leg
          ? 0
          : Math.max(parent.filledQuantity, parent.bookFilledQuantity ?? 0);
      },
      positions: () => positions.positions(),
      notPlaced: () => [...deps.notPlaced()],
      cancel: (order, s) => cancelAtStop(broker, logger, order, s, (err) => core.pause(err)),
      squareOff: (strategyId, token, id) =>
        squareOff(core, { kind: 'squareOff', id, strategyId, token, reason: 'shutdown' }),
      wait: (ms, s) => sleep(clock, ms, s).catch(() => undefined),
    },
    policy,
    { signal, retryMs: options.retryMs ?? 500, now: () => clock.now() },
  );
  await untilAborted(stopped, signal);
  report.unfinished.push(...dropped);
  return report;
}
