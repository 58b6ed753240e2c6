/** Telegram's limits for one bot: about one message a second to a chat, 30 a second in all. */
const TELEGRAM_LIMITS = { perChatMs: 1_000, perSecond: 30 } as const;

/**
 * Spaces sends so that Telegram's limits hold without meeting its 429s: `delayMs` says
 * how long a message to `chat` must wait from now, `sent` records a send.
 *
 * @example
 * ```ts
 * const pacer = new TelegramPacer(() => Date.now());
 * await wait(pacer.delayMs(chat)); pacer.sent(chat);
 * ```
 */
export class TelegramPacer {
  private readonly lastByChat = new Map<string, number>();
  /** Send instants of the last second, oldest first. */
  private readonly recent: number[] = [];

  constructor(
    private readonly now: () => number,
    private readonly limits: { perChatMs: number; perSecond: number } = TELEGRAM_LIMITS,
  ) {}

  /** How long a message to `chat` waits before it may go, ms. */
  delayMs(chat: string): number {
    const now = this.now();
    while (this.recent.length > 0 && (this.recent[0] as number) <= now - 1_000) this.recent.shift();
    const last = this.lastByChat.get(chat);
    const chatWait = last === undefined ? 0 : last + this.limits.perChatMs - now;
    const allWait =
      this.recent.length < this.limits.perSecond ? 0 : (this.recent[0] as number) + 1_000 - now;
    return Math.max(0, chatWait, allWait);
  }

  /** A message to `chat` went now. */
  sent(chat: string): void {
    const now = this.now();
    this.lastByChat.set(chat, now);
    this.recent.push(now);
  }
}
