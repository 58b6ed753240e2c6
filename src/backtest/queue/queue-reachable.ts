import { Redis } from 'ioredis';
import type { QueueConnection } from './redis-url.ts';

/** The queue's Redis did not answer at the start of a submission. */
export class QueueUnavailableError extends Error {
  override name = 'QueueUnavailableError';
  /** The queue's URL with any password masked. */
  readonly url: string;

  constructor(url: string, why: string, options?: { cause?: unknown }) {
    super(
      `the queue's Redis at ${url} cannot be reached (${why}): is redis-server running there, and the port open to this machine?`,
      options,
    );
    this.url = url;
  }
}

/**
 * Checks, within `timeoutMs`, that the queue's Redis answers a PING: one connection
 * attempt, no retries, so a wrong host or port is said at once instead of the submitter
 * reconnecting forever. `redactedUrl` (see `redactQueueUrl`) is what the error shows.
 */
export async function checkQueueReachable(
  connection: QueueConnection,
  redactedUrl: string,
  timeoutMs = 5_000,
): Promise<void> {
  const redis = new Redis({
    ...connection,
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // The socket's own error (ECONNREFUSED, ENOTFOUND) says more than connect()'s
  // "Connection is closed"; an unheard 'error' event would crash.
  let socketError: Error | undefined;
  redis.on('error', (err: Error) => {
    socketError ??= err;
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer in ${Math.round(timeoutMs / 1000)} s`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([redis.connect().then(() => redis.ping()), timeout]);
  } catch (err) {
    const cause = socketError ?? err;
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new QueueUnavailableError(redactedUrl, why, { cause: err });
  } finally {
    clearTimeout(timer);
    redis.disconnect();
  }
}
