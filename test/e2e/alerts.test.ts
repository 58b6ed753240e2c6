import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../src/ops/notify/testing/webhook-receiver.ts';
import { killAll, REPO, spawnRunner, waitForExit } from './helpers/child-process.ts';

const SECRET = 'e2e-webhook-secret-4242';

/** A paper bot on the embedded simulator whose alerts go to `url`, the secret from the env. */
function writeConfig(url: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'tr-alerts-'));
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
execution: { trackIntervalMs: 1000, shutdownTimeoutMs: 10000 }
state: { dir: ${join(dir, 'state')} }
notify:
  webhook: { url: "${url}", secret: "\${WEBHOOK_SECRET}" }
logging: { format: json, summaryIntervalSeconds: 0 }
`,
  );
  return file;
}

let receiver: WebhookReceiver | undefined;
afterAll(async () => {
  await killAll();
  await receiver?.close();
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
});
