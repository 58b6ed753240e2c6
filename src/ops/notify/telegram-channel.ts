import { Bot, GrammyError, HttpError } from 'grammy';
import type { AlertKind } from '../../config/notify-config-schema.ts';
import { type Alert, alertText } from './alert.ts';
import type { AlertChannel, ChannelDeps, QueueSettings } from './alert-channel.ts';
import { DeliveryQueue, type DeliveryStats, type SendOutcome } from './delivery-queue.ts';
import { type BotCommandPort, registerTelegramCommands } from './telegram-commands.ts';
import { TelegramPacer } from './telegram-pacer.ts';

/** `notify.telegram` as validated. */
export interface TelegramSettings {
  botToken: string;
  chatIds: readonly (string | number)[];
  apiRoot?: string | undefined;
  events?: readonly AlertKind[] | undefined;
  commands: boolean;
}

/** One message to one chat. */
interface Outgoing {
  chat: string;
  text: string;
}

/** Telegram's longest message; longer alerts are cut (a daily summary of many positions). */
const MAX_TEXT = 4_000;
/** How long Telegram holds a poll for commands open when none comes, seconds. */
const POLL_SECONDS = 30;
/** The client's own limit: a held poll must end well before it is cut. */
const CLIENT_SECONDS = POLL_SECONDS + 15;

/**
 * Sends alerts to every configured chat through grammy, paced under Telegram's limits
 * (one message a second a chat, 30 a second in all), a 429's `retry_after` honoured;
 * with `commands` on, it long-polls for commands and answers them from those chats only.
 * No error text leaves here unscrubbed: grammy's errors can carry the URL, which holds
 * the bot token.
 */
export class TelegramChannel implements AlertChannel {
  readonly name = 'telegram';
  readonly bot: Bot;
  private readonly queue: DeliveryQueue<Outgoing>;
  private readonly chats: string[];
  private readonly pacer: TelegramPacer;
  private polling: Promise<void> | undefined;
  private stopping = false;
  private refused = false;
  private pollingStopped: Promise<void> | undefined;
  private readonly log: ChannelDeps['logger'];

  constructor(
    private readonly settings: TelegramSettings,
    queue: QueueSettings,
    private readonly deps: ChannelDeps,
    private readonly port?: BotCommandPort,
  ) {
    this.log = deps.logger.child({ component: 'notify', channel: 'telegram' });
    this.chats = settings.chatIds.map(String);
    this.pacer = new TelegramPacer(deps.now ?? Date.now);
    this.bot = new Bot(settings.botToken, {
      client: {
        ...(settings.apiRoot === undefined ? {} : { apiRoot: settings.apiRoot }),
        // Outlasts a long poll: cut at the queue's timeout (10 s by default, under the
        // poll's 30 s), every poll failed and grammy slept 3 s before the next, so a
        // command could wait that long for an answer.
        timeoutSeconds: CLIENT_SECONDS,
      },
    });
    this.bot.api.config.use((prev, method, payload, signal) => {
      // Every sendMessage, a command's reply too, counts against the chat's pace (review 16b N8).
      if (method === 'sendMessage' && payload !== undefined && 'chat_id' in payload)
        this.pacer.sent(String(payload.chat_id));
      // Every call but a long poll is bounded by the queue's timeout, as before; a call
      // given its own signal (grammy's polling hands its stop signal to deleteWebhook and
      // getMe) keeps it as well.
      const longPoll =
        method === 'getUpdates' &&
        ((payload as { timeout?: number } | undefined)?.timeout ?? 0) > 0;
      if (longPoll) return prev(method, payload, signal);
      const bounded = new AbortController();
      const timer = setTimeout(() => bounded.abort(), queue.timeoutMs);
      timer.unref();
      // The shim's signal (not Node's: AbortSignal.any would refuse it) is followed by hand.
      if (signal?.aborted === true) bounded.abort();
      else signal?.addEventListener('abort', () => bounded.abort(), { once: true });
      // grammy types its signal with the abort-controller shim's class; Node's is the same API.
      const given = bounded.signal as unknown as NonNullable<typeof signal>;
      return prev(method, payload, given).finally(() => clearTimeout(timer));
    });
    this.queue = new DeliveryQueue<Outgoing>({
      capacity: queue.queueSize,
      maxRetries: queue.maxRetries,
      retryBaseMs: queue.retryBaseMs,
      retryMaxMs: queue.retryMaxMs,
      send: (m) => this.send(m),
      paceMs: (m) => this.pacer.delayMs(m.chat),
      onProblem: (reason, final) =>
        this.log.warn({ event: 'alert-delivery', final }, `telegram: ${reason}`),
      ...(deps.wait === undefined ? {} : { wait: deps.wait }),
    });
  }

  deliver(alert: Alert): void {
    const text = this.deps.scrub(alertText(alert)).slice(0, MAX_TEXT);
    for (const chat of this.chats) this.queue.push({ chat, text });
  }

  stats(): DeliveryStats {
    return this.queue.stats();
  }

  /** Starts long polling for commands (when on and a port is given); never throws. */
  start(): void {
    if (!this.settings.commands || this.port === undefined || this.polling !== undefined) return;
    registerTelegramCommands(
      this.bot,
      new Set(this.chats),
      this.port,
      (command, who, chat) =>
        this.log.info({ event: 'bot-command', command, who, chat }, `telegram command /${command}`),
      () => this.stopping,
    );
    this.bot.catch((err) =>
      this.log.warn(
        { event: 'bot-command-error' },
        `telegram command failed: ${this.describe(err.error)}`,
      ),
    );
    this.polling = this.bot
      .start({ allowed_updates: ['message'], timeout: POLL_SECONDS })
      .catch((err: unknown) =>
        this.log.error(
          { event: 'telegram-polling' },
          `telegram polling stopped: ${this.describe(err)}`,
        ),
      );
  }

  /**
   * The stop began: no more commands are taken (polling ends; one already fetched is
   * answered "stopping, not done"). Alerts still go out until {@link stop}.
   */
  beginStop(): void {
    this.stopping = true;
    if (this.polling === undefined || this.pollingStopped !== undefined) return;
    // Stopping confirms the last update to Telegram; awaited (bounded) in `stop`.
    this.pollingStopped = this.bot.stop().catch(() => undefined);
  }

  async stop(signal: AbortSignal): Promise<void> {
    this.beginStop();
    // One message a chat: paced at 1 s a chat, the closing fills and the stop alert
    // queued behind a recent alert would otherwise outlast the stop's budget.
    this.queue.compact(mergePerChat);
    await this.queue.flush(signal);
    this.queue.close();
    if (this.pollingStopped === undefined) return;
    await Promise.race([
      this.pollingStopped,
      new Promise<void>((resolve) =>
        signal.addEventListener('abort', () => resolve(), { once: true }),
      ),
    ]);
  }

  private async send(m: Outgoing): Promise<SendOutcome> {
    try {
      await this.bot.api.sendMessage(m.chat, m.text);
      return { kind: 'sent' };
    } catch (err) {
      const reason = this.describe(err);
      if (err instanceof GrammyError) {
        if (err.error_code === 429) {
          const after = err.parameters.retry_after;
          return after === undefined
            ? { kind: 'retry', reason }
            : { kind: 'retry', reason, afterMs: after * 1000 };
        }
        if (err.error_code === 401 || err.error_code === 404) this.refuseForGood(reason);
        return err.error_code >= 500 ? { kind: 'retry', reason } : { kind: 'fail', reason };
      }
      return { kind: 'retry', reason };
    }
  }

  /**
   * The service refused the bot token (401) or knows no such bot (404): every later send
   * would fail the same way, so say it once and drop (count) the rest of the day's alerts
   * rather than logging two lines per alert per chat (review 16b N7).
   */
  private refuseForGood(reason: string): void {
    if (this.refused) return;
    this.refused = true;
    this.log.error(
      { event: 'telegram-refused' },
      `telegram refused the bot (${reason}): Telegram alerts are off until a restart with a good notify.telegram.botToken`,
    );
    this.queue.close();
  }

  /** An error in words, with no secret in them. */
  private describe(err: unknown): string {
    if (err instanceof GrammyError) return this.deps.scrub(`${err.error_code} ${err.description}`);
    if (err instanceof HttpError) return this.deps.scrub(err.message);
    return this.deps.scrub(err instanceof Error ? `${err.name}: ${err.message}` : String(err));
  }
}

/**
 * Folds the messages of each chat into as few as fit Telegram's length, in order, the
 * chats in the order of their first message (so the head's chat, maybe being paced, stays first).
 */
function mergePerChat(items: readonly Outgoing[]): Outgoing[] {
  const byChat = new Map<string, Outgoing[]>();
  for (const m of items) {
    const list = byChat.get(m.chat) ?? [];
    const last = list.at(-1);
    if (last !== undefined && last.text.length + 2 + m.text.length <= MAX_TEXT)
      list[list.length - 1] = { chat: m.chat, text: `${last.text}\n\n${m.text}` };
    else list.push(m);
    byChat.set(m.chat, list);
  }
  return [...byChat.values()].flat();
}
