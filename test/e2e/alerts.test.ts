import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type FakeTelegram,
  startFakeTelegram,
} from '../../src/ops/notify/testing/fake-telegram.ts';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../src/ops/notify/testing/webhook-receiver.ts';
import { killAll, REPO, spawnRunner, waitForExit } from './helpers/child-process.ts';

const SECRET = 'e2e-webhook-secret-4242';

/**
 * A paper bot on the embedded simulator trading `buy-when-flat`, its config in a fresh
 * temp folder: `execution` ends with `stop` (e.g. `, onShutdown: flatten`) and `notify`
 * is the block's YAML lines, secrets as `${VAR}` references to the env.
 */
function writeBotConfig(prefix: string, notify: string, stop = ''): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const file = join(dir, 'bot.yaml');
  writeFileSync(
    file,
    `mode: paper
broker:
  baseUrl: embedded
  sim: { seed: 42, speed: 10, start: "2026-11-20T09:20:00+05:30" }
marketData: { intervalMs: 1000, warmupSeconds: 0 }
strategies:
  - id: flat
    module: ${join(REPO, 'test/fixtures/strategies/buy-when-flat.ts')}
execution: { trackIntervalMs: 1000, shutdownTimeoutMs: 10000${stop} }
state: { dir: ${join(dir, 'state')} }
notify:
  ${notify}
logging: { format: json, summaryIntervalSeconds: 0 }
`,
  );
  return file;
}

/** A paper bot whose alerts go to `url`, the secret from the env. */
const writeConfig = (url: string): string =>
  writeBotConfig('tr-alerts-', `webhook: { url: "${url}", secret: "\${WEBHOOK_SECRET}" }`);

const TG_TOKEN = '123456:e2e-telegram-token';

/** A paper bot that flattens at the stop, its alerts to two chats of a fake Bot API. */
const writeTelegramConfig = (apiRoot: string): string =>
  writeBotConfig(
    'tr-alerts-tg-',
    `telegram: { botToken: "\${TG_TOKEN}", chatIds: [111, 222], apiRoot: "${apiRoot}" }`,
    ', onShutdown: flatten',
  );

let receiver: WebhookReceiver | undefined;
let telegram: FakeTelegram | undefined;
afterAll(async () => {
  await killAll();
  await receiver?.close();
  await telegram?.close();
});

describe('e2e: alerts of a paper bot to a webhook', { timeout: 120_000 }, () => {
  it('posts signed start, fill and stop alerts (what was left open) and exits cleanly', async () => {
    receiver = await startWebhookReceiver(SECRET);
    const bot = spawnRunner(['run', '--config', writeConfig(receiver.url)], {
      WEBHOOK_SECRET: SECRET,
    });
    const kinds = () => receiver?.received.map((r) => r.json.kind) ?? [];
    const until = async (what: string, test: () => boolean, ms = 60_000) => {
      const give = Date.now() + ms;
      while (!test()) {
        if (Date.now() > give || bot.proc.exitCode !== null)
          throw new Error(
            `timed out waiting for ${what}: ${kinds().join(',')}\n${bot.stderr().slice(-2000)}`,
          );
        await receiver
          ?.waitFor(receiver.received.length + 1, Math.max(1, give - Date.now()))
          .catch(() => undefined);
      }
    };
    await until(
      'the start and a fill alert',
      () => kinds().includes('bot') && kinds().includes('fill'),
    );
    bot.signal('SIGTERM');
    const exit = await waitForExit(bot, 20_000);
    expect(exit.code, bot.stderr().slice(-2000)).toBe(0);
    const got = receiver.received;
    const texts = got.map((g) => String(g.json.text));
    expect(texts[0]).toMatch(
      /^\d\d:\d\d:\d\d IST {2}bot started \(paper\): flat\nno open positions$/,
    );
    const fill = got.find((g) => g.json.kind === 'fill');
    expect(String(fill?.json.text)).toMatch(
      /IST {2}flat {2}BUY 10 SBIN-EQ @ ₹[\d,]+\.\d\d filled \(order \S+\)$/,
    );
    expect(fill?.json.marketTime).toMatch(/^2026-11-20T09:2\d:\d\d\.\d{3}\+05:30$/);
    // The stop alert came before the exit, with the position the default policy keeps.
    const stop = got.at(-1);
    expect(stop?.json.kind).toBe('bot');
    expect(String(stop?.json.text)).toMatch(
      /bot stopped \(received SIGTERM; policy cancel-entries\)\nSBIN-EQ \+10 @ ₹/,
    );
    for (const g of got) {
      expect(g.verified).toBe(true);
      expect(g.body).not.toContain(SECRET);
    }
  });

  it('Telegram: a stop right after a fill still delivers the closing fill and the stop alert to each chat (review 16b M1)', async () => {
    telegram = await startFakeTelegram(TG_TOKEN);
    const bot = spawnRunner(['run', '--config', writeTelegramConfig(telegram.apiRoot)], {
      TG_TOKEN,
    });
    const fills = () => telegram?.sent.filter((m) => / BUY 10 SBIN-EQ .* filled/.test(m.text));
    const give = Date.now() + 60_000;
    while ((fills()?.length ?? 0) < 1) {
      if (Date.now() > give || bot.proc.exitCode !== null)
        throw new Error(`no fill alert on Telegram\n${bot.stderr().slice(-2000)}`);
      await telegram
        .waitForSent(telegram.sent.length + 1, Math.max(1, give - Date.now()))
        .catch(() => undefined);
    }
    // Under a second after a fill reached a chat: its pacing holds the next message there.
    bot.signal('SIGTERM');
    const exit = await waitForExit(bot, 20_000);
    expect(exit.code, bot.stderr().slice(-2000)).toBe(0);
    for (const chat of ['111', '222']) {
      const texts = telegram.sent.filter((m) => m.chat === chat).map((m) => m.text);
      const all = texts.join('\n');
      expect(all, all).toMatch(/SELL 10 SBIN-EQ @ ₹[\d,]+\.\d\d filled \(order \d+, shutdown\)/);
      expect(all, all).toContain('bot stopped (received SIGTERM; policy flatten)');
    }
    for (const m of telegram.sent) expect(m.text).not.toContain(TG_TOKEN);
  });
});
