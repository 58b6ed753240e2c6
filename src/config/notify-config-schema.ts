import { z } from 'zod';

/**
 * The kinds of alert a bot sends (issue 16 §3). A channel sends every kind unless its
 * `events` lists a subset.
 */
export const ALERT_KINDS = [
  'fill',
  'rejection',
  'kill-switch',
  'square-off-failed',
  'session',
  'stale-data',
  'strategy-error',
  'bot',
  'daily-summary',
] as const;

/** One kind of alert. */
export type AlertKind = (typeof ALERT_KINDS)[number];

const events = z
  .array(z.enum(ALERT_KINDS))
  .min(1, 'expected at least one event kind (leave `events` out for all of them)')
  .optional();

/** `notify.webhook`: a POST of each alert as JSON. */
const webhookSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/ }),
  /** With a secret, each POST carries `X-Tiqs-Runner-Signature: sha256=<hex HMAC of the body>`. */
  secret: z.string().min(1, 'expected a non-empty secret (use ${WEBHOOK_SECRET})').optional(),
  events,
});

/** `notify.telegram`: messages to chats and commands from them. */
const telegramSchema = z.strictObject({
  botToken: z.string().min(1, 'expected a non-empty botToken (use ${TELEGRAM_BOT_TOKEN})'),
  /** Chats that get alerts; commands are answered from these chats only. */
  chatIds: z.array(z.union([z.number().int(), z.string().min(1)])).min(1),
  /** The Bot API's root (a local stand-in in tests); Telegram's own by default. */
  apiRoot: z.url({ protocol: /^https?$/ }).optional(),
  events,
  /** Answer `/status`, `/positions`, `/pause`, `/resume`, `/squareoff` (long polling). */
  commands: z.boolean().default(true),
});

/** The `notify` section: alerts by webhook and Telegram, off unless configured. */
export const notifyConfigSchema = z.strictObject({
  webhook: webhookSchema.optional(),
  telegram: telegramSchema.optional(),
  /** A token without fresh data this long (market time) raises a `stale-data` alert. */
  staleAfterSeconds: z.number().int().min(1).max(86_400).default(60),
  /** Alerts waiting per channel; beyond it the oldest is dropped (and counted). */
  queueSize: z.number().int().min(1).max(10_000).default(200),
  /** Attempts after the first for one alert before it counts as failed. */
  maxRetries: z.number().int().min(0).max(20).default(5),
  /** First retry's delay; it doubles up to `retryMaxMs` (a 429's retry_after wins). */
  retryBaseMs: z.number().int().min(10).max(60_000).default(1_000),
  retryMaxMs: z.number().int().min(100).max(600_000).default(60_000),
  /** Deadline of one delivery request. */
  timeoutMs: z.number().int().min(100).max(60_000).default(10_000),
});
