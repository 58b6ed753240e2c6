import type { Logger } from 'pino';
import type { RunnerConfig } from '../../config/config-schema.ts';
import { BotControls } from '../../runtime/bot-controls.ts';
import type { Kernel } from '../../runtime/kernel.ts';
import { controlsPort } from './controls-port.ts';
import type { Notifier } from './notifier.ts';

/**
 * The alerts of a `run` bot, when `notify` configures a channel: watching `kernel`, with
 * Telegram's commands over its controls. Call (and await) before `kernel.start()` so
 * every order's life is seen; undefined when no channel is configured. The notifier's
 * modules are imported only then, so a bot without alerts does not load them.
 */
export async function startAlerts(
  kernel: Kernel,
  config: RunnerConfig,
  logger: Logger,
  controls?: BotControls,
  scrub?: (text: string) => string,
): Promise<Notifier | undefined> {
  const { webhook, telegram } = config.notify;
  if (webhook === undefined && telegram === undefined) return undefined;
  const commands =
    telegram?.commands === true
      ? controlsPort(controls ?? BotControls.of(kernel, logger))
      : undefined;
  const { Notifier } = await import('./notifier.ts');
  const notifier = await Notifier.fromConfig(config, {
    logger,
    ...(commands === undefined ? {} : { commands }),
    ...(scrub === undefined ? {} : { scrub }),
  });
  notifier?.attach(kernel);
  return notifier;
}
