import type { Bot } from 'grammy';

/**
 * What the Telegram commands act on; the run command adapts the bot's controls to it
 * (`src/runtime/bot-controls.ts`). Each answers in words ready to send.
 */
export interface BotCommandPort {
  status(): string;
  positions(): string;
  pause(strategyId: string, who: string): Promise<string> | string;
  resume(strategyId: string, who: string): Promise<string> | string;
  squareOff(who: string): Promise<string> | string;
}

const HELP = 'Commands: /status, /positions, /pause <strategy>, /resume <strategy>, /squareoff';

/**
 * Registers `/status`, `/positions`, `/pause <strategy>`, `/resume <strategy>` and
 * `/squareoff` on `bot`, answered only in the configured chats: an update from any other
 * chat is dropped before a command sees it, unanswered (a stranger learns nothing, not
 * even that the bot listens). Each command is logged with who asked through `onCommand`;
 * once `stopping()` is true every command is answered "stopping, not done" and does nothing.
 */
export function registerTelegramCommands(
  bot: Bot,
  allowedChats: ReadonlySet<string>,
  port: BotCommandPort,
  onCommand: (command: string, who: string, chat: string) => void,
  stopping: () => boolean = () => false,
): void {
  bot.use(async (ctx, next) => {
    const chat = ctx.chat?.id;
    if (chat === undefined || !allowedChats.has(String(chat))) return;
    await next();
  });
  const who = (ctx: { from?: { username?: string; id: number } | undefined }): string =>
    ctx.from === undefined
      ? 'telegram'
      : `telegram:${ctx.from.username === undefined ? ctx.from.id : `@${ctx.from.username}`}`;
  const answer = (
    name: string,
    act: (arg: string, by: string) => Promise<string> | string,
    needsArg = false,
  ) =>
    bot.command(name, async (ctx) => {
      const by = who(ctx);
      const arg = ctx.match.trim();
      onCommand(name, by, String(ctx.chat.id));
      // Once the stop began nothing acts (the journal may be closing): say so, do nothing.
      if (stopping()) {
        await ctx.reply(`/${name}: the bot is stopping, not done`);
        return;
      }
      if (needsArg && arg === '') {
        await ctx.reply(`usage: /${name} <strategy>`);
        return;
      }
      await ctx.reply(await act(arg, by));
    });
  answer('status', () => port.status());
  answer('positions', () => port.positions());
  answer('pause', (arg, by) => port.pause(arg, by), true);
  answer('resume', (arg, by) => port.resume(arg, by), true);
  answer('squareoff', (_arg, by) => port.squareOff(by));
  answer('help', () => HELP);
  answer('start', () => HELP);
}
