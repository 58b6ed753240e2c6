import type { Logger } from 'pino';
import type { Subscription } from 'rxjs';
import type { RunnerConfig } from '../../config/config-schema.ts';
import type { AlertKind } from '../../config/notify-config-schema.ts';
import type { ShutdownReport } from '../../execution/run-shutdown.ts';
import type { Kernel } from '../../runtime/kernel.ts';
import type { Alert } from './alert.ts';
import type { AlertChannel, ChannelDeps } from './alert-channel.ts';
import { type PausedStrategy, pausedLine, positionLines, stoppedText } from './alert-texts.ts';
import type { DeliveryStats } from './delivery-queue.ts';
import { watchKernel } from './kernel-alerts.ts';
import { configSecrets, secretScrubber } from './secret-scrubber.ts';
import type { BotCommandPort } from './telegram-commands.ts';

/** Counters of every channel and their sum (metrics: `tiqs_runner_alerts_dropped_total`). */
export interface NotifierStats extends Omit<DeliveryStats, 'queued'> {
  queued: number;
  channels: Partial<Record<AlertChannel['name'], DeliveryStats>>;
}

/** What a notifier is built with besides the config. */
export interface NotifierDeps {
  logger: Logger;
  /** Telegram's commands act through it; none: commands are off. */
  commands?: BotCommandPort;
  /** Injected in tests (virtual time); see {@link ChannelDeps}. */
  wait?: ChannelDeps['wait'];
  now?: ChannelDeps['now'];
  /**
   * Scrubs secrets from what the channels send; default the config's secrets. `run`
   * passes its own, rebuilt when credentials are reloaded, so a new token is scrubbed too.
   */
  scrub?: (text: string) => string;
}

/**
 * The alerts of one bot (issue 16 §3): fans each alert out to the configured channels
 * whose `events` take its kind, watches a kernel for what to say, and stops after
 * flushing what it can within the stop's budget. `emit` only queues: trading never waits
 * for a message.
 *
 * @example
 * ```ts
 * const notifier = await Notifier.fromConfig(config, { logger });
 * notifier?.attach(kernel);
 * await kernel.start(); notifier?.started(kernel);
 * notifier?.stopped('SIGTERM', report); await notifier?.stop(signal);
 * ```
 */
export class Notifier {
  private readonly watches: Subscription[] = [];

  private constructor(
    private readonly channels: readonly {
      channel: AlertChannel;
      kinds: ReadonlySet<AlertKind> | undefined;
    }[],
    private readonly config: RunnerConfig,
    private readonly logger: Logger,
  ) {}

  /**
   * The notifier of a config; undefined when no channel is configured. Each channel's
   * module is imported only when it is configured: Telegram's client (grammy and its
   * fetch polyfills, ≈ 0.9 MB of source) would otherwise be loaded by every `run` start.
   */
  static async fromConfig(config: RunnerConfig, deps: NotifierDeps): Promise<Notifier | undefined> {
    const n = config.notify;
    if (n.webhook === undefined && n.telegram === undefined) return undefined;
    const scrub = deps.scrub ?? secretScrubber(configSecrets(config));
    const base: ChannelDeps = {
      logger: deps.logger,
      scrub,
      mode: config.mode,
      ...(deps.wait === undefined ? {} : { wait: deps.wait }),
      ...(deps.now === undefined ? {} : { now: deps.now }),
    };
    const channels: { channel: AlertChannel; kinds: ReadonlySet<AlertKind> | undefined }[] = [];
    // A channel that takes rejections or the kill switch also gets the square-off that
    // failed (a kind added later, which a list written before would miss).
    const kindsOf = (events: readonly AlertKind[] | undefined) =>
      events === undefined
        ? undefined
        : new Set<AlertKind>(
            events.includes('rejection') || events.includes('kill-switch')
              ? [...events, 'square-off-failed']
              : events,
          );
    if (n.webhook !== undefined) {
      const { WebhookChannel } = await import('./webhook-channel.ts');
      channels.push({
        channel: new WebhookChannel(n.webhook, n, base),
        kinds: kindsOf(n.webhook.events),
      });
    }
    if (n.telegram !== undefined) {
      const { TelegramChannel } = await import('./telegram-channel.ts');
      channels.push({
        channel: new TelegramChannel(n.telegram, n, base, deps.commands),
        kinds: kindsOf(n.telegram.events),
      });
    }
    return new Notifier(channels, config, deps.logger);
  }

  /** Queues `alert` on every channel that takes its kind. Never blocks, never throws. */
  emit(alert: Alert): void {
    for (const { channel, kinds } of this.channels) {
      if (kinds !== undefined && !kinds.has(alert.kind)) continue;
      // Called from the engine's event stream: a throw here would be rethrown by RxJS as an
      // uncaught exception and end the process (review 16b N6). Logged without the text.
      try {
        channel.deliver(alert);
      } catch (err) {
        this.logger.error(
          { event: 'alert-failed', channel: channel.name, kind: alert.kind },
          `alert not queued: ${err instanceof Error ? err.name : 'error'}`,
        );
      }
    }
  }

  /** Watches `kernel` for alerts and starts listening for commands. */
  attach(kernel: Kernel): void {
    this.watches.push(
      watchKernel(kernel, (a) => this.emit(a), {
        staleAfterMs: this.config.notify.staleAfterSeconds * 1000,
      }),
    );
    for (const { channel } of this.channels) channel.start();
  }

  /**
   * The start alert: mode, strategies, those an operator paused (kept from an earlier run:
   * they will not enter until resumed) and what the journal holds open.
   */
  started(kernel: Kernel): void {
    const ids = Object.keys(kernel.strategyStatus());
    const { controlState } = kernel;
    const paused: PausedStrategy[] = controlState.paused().map((strategy) => {
      const by = controlState.pausedBy(strategy);
      return by === undefined ? { strategy } : { strategy, by };
    });
    const lines = [`bot started (${this.config.mode}): ${ids.join(', ')}`];
    const pausedText = pausedLine(paused);
    if (pausedText !== undefined) lines.push(pausedText);
    lines.push(positionLines(kernel.engine.positions.positions()));
    if (kernel.engine.killed) lines.push('kill switch is tripped for today');
    this.emit({
      kind: 'bot',
      at: kernel.clock.now(),
      text: lines.join('\n'),
      data: { event: 'started', strategies: ids, ...(paused.length > 0 ? { paused } : {}) },
    });
  }

  /** The stop alert: what the stop left open at the broker. */
  stopped(at: number, reason: string, report: ShutdownReport): void {
    this.emit({
      kind: 'bot',
      at,
      text: stoppedText(reason, report),
      data: {
        event: 'stopped',
        reason,
        openPositions: report.positions.filter((p) => p.netQuantity !== 0).length,
        openOrders: report.orders.length,
        unfinished: report.unfinished,
      },
    });
  }

  /** Every channel's counters and their sum. */
  stats(): NotifierStats {
    const total: NotifierStats = {
      queued: 0,
      sent: 0,
      failed: 0,
      dropped: 0,
      retries: 0,
      channels: {},
    };
    for (const { channel } of this.channels) {
      const s = channel.stats();
      total.channels[channel.name] = s;
      total.queued += s.queued;
      total.sent += s.sent;
      total.failed += s.failed;
      total.dropped += s.dropped;
      total.retries += s.retries;
    }
    return total;
  }

  /**
   * The stop began: Telegram stops taking commands at once (a command then would act on
   * a stopping bot). Alerts, the closing fills and the stop alert among them, still go.
   */
  beginStop(): void {
    for (const { channel } of this.channels) channel.beginStop();
  }

  /** Stops watching, sends what is queued until `signal` aborts, then closes every channel. */
  async stop(signal: AbortSignal): Promise<void> {
    for (const w of this.watches) w.unsubscribe();
    await Promise.all(this.channels.map(({ channel }) => channel.stop(signal)));
  }
}
