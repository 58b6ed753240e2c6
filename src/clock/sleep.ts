import { Subscription } from 'rxjs';
import type { Clock } from './clock.ts';

/**
 * Resolves after `ms` of the clock's time; rejects with the signal's reason when aborted.
 *
 * @example
 * ```ts
 * await sleep(clock, 250);
 * ```
 */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const sub = new Subscription();
    const onAbort = (): void => {
      sub.unsubscribe();
      reject(signal?.reason);
    };
    sub.add(
      clock.scheduler.schedule(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms),
      ),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
