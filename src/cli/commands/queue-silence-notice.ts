import { Redis } from 'ioredis';
import { RedisSilence } from '../../backtest/queue/redis-silence.ts';
import { type QueueConnection, reconnectDelay } from '../../backtest/queue/redis-url.ts';

/** Silence shorter than this is not said in a line (a Redis restart takes a few seconds). */
const FIRST_MS = 10_000;
/** Between two lines while the silence lasts. */
const EVERY_MS = 30_000;

/**
 * What the submitter says while the queue's Redis does not answer (see `RedisSilence`):
 * a line once the silence passed 10 s, another every 30 s after, and one when Redis
 * answers again. On a terminal the bar says it too; in a log file these lines are all
 * there is, so a hung Redis never leaves the submitter silent.
 *
 * @example
 * ```ts
 * const notice = new SilenceNotice('redis://:***@host:6379');
 * const line = notice.line(silence.silentMs()); // undefined, or a line to print
 * ```
 */
export class SilenceNotice {
  /** The silence at which the next "not answering" line is due. */
  #nextAt = FIRST_MS;
  /** The longest silence seen since the last answer (for the "again" line). */
  #longest = 0;
  #said = false;

  /** @param url the queue's URL, password masked (`redactQueueUrl`) */
  constructor(private readonly url: string) {}

  /** The line to print for a silence of `silentMs` now, if one is due. */
  line(silentMs: number): string | undefined {
    if (silentMs <= 0) {
      const said = this.#said;
      const longest = this.#longest;
      this.#said = false;
      this.#longest = 0;
      this.#nextAt = FIRST_MS;
      return said ? `${this.url} answering again after ${seconds(longest)} s` : undefined;
    }
    this.#longest = Math.max(this.#longest, silentMs);
    if (silentMs < this.#nextAt) return undefined;
    this.#said = true;
    this.#nextAt = silentMs + EVERY_MS;
    return `${this.url} not answering for ${seconds(silentMs)} s; waiting (Ctrl-C to stop)`;
  }
}

/** Silence shorter than this is not shown in the bar (the first PING may beat the connect). */
const NOTE_MS = 5_000;

/** The bar's note while Redis does not answer (undefined while it does, or for under 5 s). */
export function silenceNote(silentMs: number): string | undefined {
  return silentMs < NOTE_MS ? undefined : `Redis not answering for ${seconds(silentMs)} s`;
}

function seconds(ms: number): number {
  return Math.round(ms / 1_000);
}

/** A running {@link watchRedisSilence}. */
export interface SilenceWatch {
  /** How long Redis has not answered (0 while it answers). */
  silentMs(): number;
  stop(): void;
}

/**
 * Watches the queue's Redis from the start of a submission to its end (data upload, job
 * submission, the wait): PINGs on a connection of its own (no offline queue, so a refused
 * connection fails at once) and, every second, hands `say` the {@link SilenceNotice} line
 * due, if any, and `tick` the silence (the bar's note).
 */
export function watchRedisSilence(
  connection: QueueConnection,
  url: string,
  say: (line: string) => void,
  tick: (silentMs: number) => void,
): SilenceWatch {
  const redis = new Redis({
    ...connection,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: reconnectDelay,
  });
  // Connection trouble is what the PINGs measure; an unheard 'error' would crash.
  redis.on('error', () => undefined);
  const silence = new RedisSilence(() => redis.ping());
  const notice = new SilenceNotice(url);
  silence.start();
  const timer = setInterval(() => {
    const silent = silence.silentMs();
    const line = notice.line(silent);
    if (line !== undefined) say(line);
    tick(silent);
  }, 1_000);
  timer.unref();
  return {
    silentMs: () => silence.silentMs(),
    stop: () => {
      clearInterval(timer);
      silence.stop();
      redis.disconnect();
    },
  };
}
