/**
 * The submitter's wait between reads of the queue: it ends early when an event names a
 * job (`nudge`), on the poll's beat otherwise (so a lost event costs at most one period),
 * or when the sweep is interrupted. Events that come while nobody waits are kept for the
 * next wait.
 *
 * @example
 * ```ts
 * const watch = new QueueWatch(1_000);
 * events.on('completed', ({ jobId }) => watch.nudge(jobId));
 * const woke = await watch.wait(signal); // ['run-…'], 'poll' or 'aborted'
 * ```
 */
export class QueueWatch {
  #nudged = new Set<string>();
  #wake: (() => void) | undefined;
  #closed = false;

  constructor(private readonly pollMs: number) {}

  /** A job changed state: the wait ends now with its id. */
  nudge(jobId: string): void {
    if (this.#closed) return;
    this.#nudged.add(jobId);
    this.#wake?.();
  }

  /**
   * Resolves with the ids nudged since the last wait (at once when there are some), with
   * `'poll'` after `pollMs`, or with `'aborted'` when `signal` aborts.
   */
  wait(signal?: AbortSignal): Promise<readonly string[] | 'poll' | 'aborted'> {
    if (signal?.aborted === true) return Promise.resolve('aborted');
    if (this.#nudged.size > 0) return Promise.resolve(this.#take());
    return new Promise((resolve) => {
      const finish = (value: readonly string[] | 'poll' | 'aborted'): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.#wake = undefined;
        resolve(value);
      };
      const onAbort = (): void => finish('aborted');
      const timer = setTimeout(() => finish('poll'), this.pollMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#wake = () => finish(this.#take());
    });
  }

  /** No more nudges are kept (the executor closed). */
  close(): void {
    this.#closed = true;
    this.#nudged.clear();
  }

  #take(): string[] {
    const ids = [...this.#nudged];
    this.#nudged.clear();
    return ids;
  }
}
