/** What {@link untilAborted} resolves to: the value, or that the budget ran out first. */
export type Bounded<T> = { done: true; value: T } | { done: false };

/**
 * Waits for `work` until `signal` aborts, whichever comes first; never rejects for the
 * abort. Shutdown uses it so a stalled answer cannot hold the stop past its budget: the
 * work itself is left to finish (or time out) on its own.
 *
 * @example
 * ```ts
 * const r = await untilAborted(broker.orderBook(), signal);
 * if (!r.done) log.warn('order book not read before the stop budget ran out');
 * ```
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<Bounded<T>> {
  if (signal.aborted) {
    // The work may still fail later; nobody waits for it, so its error is dropped here.
    work.catch(() => undefined);
    return Promise.resolve({ done: false });
  }
  return new Promise((resolve, reject) => {
    const onAbort = (): void => resolve({ done: false });
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve({ done: true, value });
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
