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
  // Failures come back through connect()/ping(); an unheard 'error' event would crash.
  redis.on('error', () => undefined);
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
    const why = err instanceof Error ? err.message : String(err);
    throw new QueueUnavailableError(redactedUrl, why, { cause: err });
  } finally {
    clearTimeout(timer);
    redis.disconnect();
  }
}
