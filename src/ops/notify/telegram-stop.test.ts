import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { pollUntil } from '../../../test/helpers/poll-until.ts';
import type { Alert } from './alert.ts';
import { alertStopBudgetMs } from './alert-stop-budget.ts';
import { secretScrubber } from './secret-scrubber.ts';
import { TelegramChannel } from './telegram-channel.ts';
import type { BotCommandPort } from './telegram-commands.ts';
import { type FakeTelegram, startFakeTelegram, TEST_QUEUE } from './testing/fake-telegram.ts';

const TOKEN = '123456:telegram-bot-token-secret';
const TRADER = 1001;
const queue = TEST_QUEUE;

let fake: FakeTelegram | undefined;
let channel: TelegramChannel | undefined;
afterEach(async () => {
  await channel?.stop(AbortSignal.timeout(3_000));
  await fake?.close();
  channel = fake = undefined;
});

/**
 * Virtual time for the pacer and the queue's waits: a wait advances `t` at once; the
 * stop's budget aborts when a wait would pass `deadline`. Only the loopback I/O is real.
 */
function virtualTime() {
  const v = { t: 0, deadline: Number.POSITIVE_INFINITY, budget: new AbortController() };
  const wait = async (ms: number, signal: AbortSignal) => {
    if (signal.aborted || v.budget.signal.aborted) return;
    if (v.t + ms > v.deadline) {
      v.t = v.deadline;
      v.budget.abort();
      return;
    }
    v.t += ms;
  };
  return { v, wait, now: () => v.t };
}

function telegram(
  apiRoot: string,
  time: ReturnType<typeof virtualTime>,
  port?: BotCommandPort,
): TelegramChannel {
  return new TelegramChannel(
    { botToken: TOKEN, chatIds: [TRADER, '1002'], apiRoot, commands: port !== undefined },
    queue,
    {
      logger: pino({ level: 'silent' }),
      scrub: secretScrubber([TOKEN]),
      mode: 'paper',
      wait: time.wait,
      now: time.now,
    },
    port,
  );
}

const alert = (text: string, kind: Alert['kind'] = 'fill'): Alert => ({
  kind,
  at: Date.parse('2026-11-20T04:01:02Z'),
  text,
});

describe('TelegramChannel at the stop (review 16b M1, M2)', () => {
  it('gives the alerts what is left of the stop budget, not a fixed second', () => {
    // A 10 s shutdownTimeoutMs whose graceful work took 15 ms leaves the alerts 9.685 s.
    expect(alertStopBudgetMs(10_000, 15)).toBe(9_685);
    expect(alertStopBudgetMs(1_000, 2_000)).toBe(0);
  });

  it('a chat paced by a fill just sent gets the closing fill and the stop alert in one message, within the budget', async () => {
    fake = await startFakeTelegram(TOKEN);
    const time = virtualTime();
    channel = telegram(fake.apiRoot, time);
    channel.deliver(alert('flat  BUY 10 SBIN-EQ @ ₹800.10 filled'));
    await fake.waitForSent(2);
    // The stop begins now, under 1 s after that fill reached both chats.
    time.v.deadline = time.v.t + alertStopBudgetMs(10_000, 15);
    channel.deliver(alert('flat  SELL 10 SBIN-EQ @ ₹800.85 filled (shutdown)'));
    channel.deliver(alert('bot stopped (received SIGINT; policy flatten)', 'bot'));
    await channel.stop(time.v.budget.signal);
    const closing = fake.sent.slice(2);
    expect(closing.map((m) => m.chat).sort()).toEqual(['1001', '1002']);
    for (const m of closing) {
      expect(m.text).toMatch(/SELL 10 SBIN-EQ @ ₹800\.85 filled \(shutdown\)\n\n.*bot stopped/);
    }
    // One pace of one chat, not one second per queued message.
    expect(time.v.t).toBe(1_000);
    expect(time.v.budget.signal.aborted).toBe(false);
    expect(channel.stats()).toMatchObject({ sent: 4, dropped: 0, failed: 0, queued: 0 });
  });

  it('takes no command once the stop began: one already fetched is answered "stopping, not done"', async () => {
    fake = await startFakeTelegram(TOKEN);
    const acted: string[] = [];
    const time = virtualTime();
    const port: BotCommandPort = {
      status: () => 'ok',
      positions: () => 'none',
      // The signal arrives while the first command of a batch is handled.
      pause: (id) => {
        acted.push(`pause ${id}`);
        channel?.beginStop();
        return `pause ${id}: paused`;
      },
      resume: (id) => {
        acted.push(`resume ${id}`);
        return 'resumed';
      },
      squareOff: () => {
        acted.push('squareoff');
        return 'closed';
      },
    };
    channel = telegram(fake.apiRoot, time, port);
    // Both in the first getUpdates batch.
    fake.say(TRADER, '/pause flat');
    fake.say(TRADER, '/squareoff');
    channel.start();
    const replies = await fake.waitForSent(2);
    expect(replies.map((m) => m.text)).toEqual([
      'pause flat: paused',
      '/squareoff: the bot is stopping, not done',
    ]);
    // Polling ended: no getUpdates is in flight or will be sent, so no later command is
    // fetched or acted on (no sleep to watch for one: the poller has stopped).
    await channel.stop(AbortSignal.timeout(3_000));
    expect(channel.bot.isRunning()).toBe(false);
    expect(acted).toEqual(['pause flat']);
  });

  it('a refused bot token (401) is logged once, and later alerts are dropped and counted (review 16b N7)', async () => {
    fake = await startFakeTelegram('another-token-entirely');
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (l: string) => void lines.push(l) });
    const time = virtualTime();
    channel = new TelegramChannel(
      { botToken: TOKEN, chatIds: [TRADER, '1002'], apiRoot: fake.apiRoot, commands: false },
      queue,
      { logger, scrub: secretScrubber([TOKEN]), mode: 'paper', wait: time.wait, now: time.now },
    );
    channel.deliver(alert('fill 0'));
    // Real loopback I/O, bounded: until the refusal came back.
    await pollUntil(() => (channel?.stats().failed ?? 0) > 0, 3_000, 'the refusal', 10);
    for (let i = 1; i < 3; i++) channel.deliver(alert(`fill ${i}`));
    await channel.stop(AbortSignal.timeout(3_000));
    // 6 messages: the first refused (failed); its twin to the other chat and the 4 later dropped.
    expect(channel.stats()).toMatchObject({ sent: 0, failed: 1, dropped: 5, queued: 0 });
    expect(lines).toHaveLength(2);
    expect(lines.join('')).toContain('telegram refused the bot (401 Unauthorized)');
    expect(lines.join('')).not.toContain(TOKEN);
  });

  it("a command's reply counts against the chat's pace: the next alert there waits (review 16b N8)", async () => {
    fake = await startFakeTelegram(TOKEN);
    const time = virtualTime();
    const port: BotCommandPort = {
      status: () => 'ok',
      positions: () => 'none',
      pause: () => 'paused',
      resume: () => 'resumed',
      squareOff: () => 'closed',
    };
    channel = telegram(fake.apiRoot, time, port);
    fake.say(TRADER, '/status');
    channel.start();
    await fake.waitForSent(1);
    channel.deliver(alert('flat  BUY 10 SBIN-EQ @ ₹800.10 filled'));
    const sent = await fake.waitForSent(3);
    expect(sent[0]).toEqual({ chat: '1001', text: 'ok' });
    // The other chat went at once; the replied chat waited its second.
    expect(time.v.t).toBe(1_000);
  });
});
