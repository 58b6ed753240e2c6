/**
 * Settles like `work`, or rejects with the signal's reason as soon as `signal` aborts,
 * whichever comes first. The fetch under `work` is told about the abort by its own
 * signal too; this makes the caller's wait end even when that news never arrives.
 */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.then(discardLate, () => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      // An answer that arrives after we gave up must not hold its connection open.
      work.then(discardLate, () => undefined);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

/** Cancels the body of a response nobody will read (a late answer), releasing its socket. */
function discardLate(late: unknown): void {
  const body = (late as { body?: { cancel?: () => Promise<unknown> } | null } | null)?.body;
  body?.cancel?.().catch(() => undefined);
}

/**
 * Reads a response body as UTF-8 text, cancelling the stream (which releases the
 * connection) and rejecting with the signal's reason the moment `signal` aborts.
 *
 * Why not `response.text()` with the request's signal alone: ky hands fetch its own
 * `Request`, whose link to our signal undici holds only weakly. Once the request has
 * been answered nothing else keeps that link alive, and a garbage collection between
 * the headers and the deadline cuts it: the abort then never reaches the body, and a
 * stalled body is awaited forever (seen on a loaded machine as order tracking that
 * silently stopped). Here the abort acts on the stream this function itself holds.
 */
export async function readBody(response: Response, signal: AbortSignal): Promise<string> {
  const stream = response.body;
  if (stream === null) return '';
  const reader = stream.getReader();
  const onAbort = (): void => {
    reader.cancel(signal.reason).catch(() => undefined);
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  const chunks: Uint8Array[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      // A cancelled stream reads as done: that is the abort, not the end of the body.
      if (signal.aborted) throw signal.reason;
      if (done) break;
      chunks.push(value);
    }
    // Decoded once, whole: a day's book is megabytes, and one pass gives a flat string
    // (chunk by chunk it is slower and leaves a rope every later scan must flatten).
    return new TextDecoder().decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  } finally {
    signal.removeEventListener('abort', onAbort);
    reader.releaseLock();
  }
}
