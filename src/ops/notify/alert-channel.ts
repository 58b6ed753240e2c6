import type { Logger } from 'pino';
import type { Alert } from './alert.ts';
import type { DeliveryStats } from './delivery-queue.ts';

/** Where alerts go: a webhook, Telegram. Delivery is queued; nothing here blocks. */
export interface AlertChannel {
  readonly name: 'webhook' | 'telegram';
  /** Queues the alert (or drops it, counted, when the queue is full). */
  deliver(alert: Alert): void;
  stats(): DeliveryStats;
  /** Starts what listens (Telegram's commands); a webhook has nothing to start. */
  start(): void;
  /** The stop began: stop taking commands (alerts still go out until `stop`). */
  beginStop(): void;
  /** Sends what is queued until `signal` aborts, then closes. */
  stop(signal: AbortSignal): Promise<void>;
}

/** What every channel is built with. */
export interface ChannelDeps {
  logger: Logger;
  /** Removes every secret from a text (see `secret-scrubber.ts`). */
  scrub(text: string): string;
  /** The bot's mode, named in webhook bodies. */
  mode: string;
  /** Injected in tests for virtual time; setTimeout-based by default. */
  wait?(ms: number, signal: AbortSignal): Promise<void>;
  /** Wall time for rate limits; `Date.now` by default. */
  now?(): number;
}

/** Queue and retry settings, from the `notify` section. */
export interface QueueSettings {
  queueSize: number;
  maxRetries: number;
  retryBaseMs: number;
  retryMaxMs: number;
  timeoutMs: number;
}
