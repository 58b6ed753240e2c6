import type { Subscription } from 'rxjs';
import type { Clock } from '../clock/clock.ts';

/** One request's total deadline, joined with the caller's signal. */
export interface RequestDeadline {
  /** Aborts at the deadline or when the caller's signal aborts, whichever comes first. */
  readonly signal: AbortSignal;
  /** True once the deadline (not the caller) aborted the request. */
  readonly expired: boolean;
  /** Cancels the timer; call when the body has been read or the attempt failed. */
  dispose(): void;
}

/**
 * A deadline of `ms` on `clock` covering a whole exchange, headers and body: unlike a
 * time-out that stops at the headers, a stalled or trickling body is cut off at the
 * same instant. Like `AbortSignal.timeout`, but on an injected clock, so tests drive it
 * in virtual time.
 *
 * @example
 * ```ts
 * const deadline = requestDeadline(clock, 10_000, callerSignal);
 * try {
 *   const res = await fetch(url, { signal: deadline.signal });
 *   return await res.text();
 * } finally {
 *   deadline.dispose();
 * }
 * ```
 */
export function requestDeadline(
  clock: Clock,
  ms: number,
  caller: AbortSignal | undefined,
): RequestDeadline {
  const controller = new AbortController();
  let expired = false;
  const timer: Subscription = clock.scheduler.schedule(
    () => {
      expired = true;
      controller.abort(new Error(`deadline of ${ms} ms passed`));
    },
    Math.max(0, ms),
  );
  // Joined by hand rather than with AbortSignal.any: a caller's signal may live all day
  // (a stop signal), and Node keeps every composite made from it alive (nodejs/node#55351).
  const onCallerAbort = (): void => controller.abort(caller?.reason);
  if (caller?.aborted === true) onCallerAbort();
  else caller?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    get expired() {
      return expired;
    },
    dispose: () => {
      timer.unsubscribe();
      caller?.removeEventListener('abort', onCallerAbort);
    },
  };
}
