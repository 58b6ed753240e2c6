import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../config/config-error.ts';
import { parseConfig } from '../../config/load-config.ts';
import { ALERT_KINDS } from '../../config/notify-config-schema.ts';
import { MemoryJournal } from '../../execution/journal.ts';
import { ControlState } from '../../runtime/bot-controls-state.ts';
import type { Kernel } from '../../runtime/kernel.ts';
import { Notifier } from './notifier.ts';
import { startWebhookReceiver, type WebhookReceiver } from './testing/webhook-receiver.ts';

const BROKER_TOKEN = 'broker-access-token-77';
const at = Date.parse('2026-11-20T04:01:02Z');
const config = (notify: string) =>
  parseConfig(
    `mode: live
broker: { baseUrl: "http://127.0.0.1:1", appId: app-id-secret-1, token: ${BROKER_TOKEN} }
strategies:
  - { id: a, module: a.ts }
${notify}`,
    '/bots/bot.yaml',
    {},
  );

let receiver: WebhookReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe('Notifier', () => {
  it('is off without a channel, and the config refuses an unknown event kind', async () => {
    expect(
      await Notifier.fromConfig(config(''), { logger: pino({ level: 'silent' }) }),
    ).toBeUndefined();
    expect(() =>
      config('notify:\n  webhook: { url: "http://127.0.0.1:1/", events: [fills] }\n'),
    ).toThrow(ConfigError);
  });

  it('sends every kind when `events` is left out, only the listed kinds otherwise, and sums the counters', async () => {
    receiver = await startWebhookReceiver('s3cret-signing');
    const all = await Notifier.fromConfig(
      config(`notify:\n  webhook: { url: "${receiver.url}", secret: s3cret-signing }\n`),
      { logger: pino({ level: 'silent' }) },
    );
    for (const kind of ALERT_KINDS) all?.emit({ kind, at, text: `${kind} with ${BROKER_TOKEN}` });
    const got = await receiver.waitFor(ALERT_KINDS.length);
    expect(got.map((g) => g.json.kind)).toEqual([...ALERT_KINDS]);
    for (const g of got) {
      expect(g.verified).toBe(true);
      expect(g.body).not.toContain(BROKER_TOKEN);
      expect(g.body).not.toContain('s3cret-signing');
    }
    await all?.stop(AbortSignal.timeout(2_000));
    expect(all?.stats()).toMatchObject({ sent: ALERT_KINDS.length, dropped: 0, failed: 0 });

    // A list with the kill switch (or rejections) takes the failed square-off too.
    const some = await Notifier.fromConfig(
      config(`notify:\n  webhook: { url: "${receiver.url}", events: [fill, kill-switch] }\n`),
      { logger: pino({ level: 'silent' }) },
    );
    for (const kind of ALERT_KINDS) some?.emit({ kind, at, text: kind });
    await some?.stop(AbortSignal.timeout(2_000));
    expect(receiver.received.slice(ALERT_KINDS.length).map((g) => g.json.kind)).toEqual([
      'fill',
      'kill-switch',
      'square-off-failed',
    ]);
    expect(some?.stats()).toMatchObject({ sent: 3, channels: { webhook: { sent: 3 } } });
    const fills = await Notifier.fromConfig(
      config(`notify:\n  webhook: { url: "${receiver.url}", events: [fill] }\n`),
      { logger: pino({ level: 'silent' }) },
    );
    for (const kind of ALERT_KINDS) fills?.emit({ kind, at, text: kind });
    await fills?.stop(AbortSignal.timeout(2_000));
    expect(fills?.stats()).toMatchObject({ sent: 1 });
  });

  it("scrubs with the scrubber it is given (run's, rebuilt when credentials are reloaded)", async () => {
    // Checked to fail: with the config's own scrubber only, the reloaded token went out.
    receiver = await startWebhookReceiver('s3cret-signing');
    const n = await Notifier.fromConfig(
      config(`notify:\n  webhook: { url: "${receiver.url}", secret: s3cret-signing }\n`),
      {
        logger: pino({ level: 'silent' }),
        scrub: (text) => text.replaceAll('reloaded-token-123', '[secret]'),
      },
    );
    n?.emit({ kind: 'fill', at, text: 'refused: bad token reloaded-token-123' });
    await receiver.waitFor(1);
    await n?.stop(AbortSignal.timeout(3_000));
    expect(receiver.received.map((r) => r.json.text)).toEqual([
      expect.stringContaining('bad token [secret]'),
    ]);
  });

  it('never throws from emit: an alert a channel cannot queue is logged, the next one goes (review 16b N6)', async () => {
    receiver = await startWebhookReceiver('s3cret-signing');
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (l: string) => void lines.push(l) });
    const n = await Notifier.fromConfig(
      config(`notify:\n  webhook: { url: "${receiver.url}", secret: s3cret-signing }\n`),
      { logger },
    );
    // A BigInt in `data`: JSON.stringify throws inside the webhook's deliver.
    expect(() =>
      n?.emit({ kind: 'fill', at, text: 'odd', data: { qty: 10n } as Record<string, unknown> }),
    ).not.toThrow();
    n?.emit({ kind: 'fill', at, text: 'next' });
    await receiver.waitFor(1);
    await n?.stop(AbortSignal.timeout(3_000));
    expect(receiver.received.map((r) => r.json.text)).toEqual([expect.stringContaining('next')]);
    expect(lines.join('')).toContain('alert not queued: TypeError');
  });

  it('says in the start alert which strategies an operator paused in an earlier run, and by whom', async () => {
    // Checked to fail: before, the start alert named the strategies only ('bot started
    // (live): a, b, c\nno open positions'), so a restart looked like a bot that trades.
    receiver = await startWebhookReceiver(undefined);
    const journal = new MemoryJournal();
    const silent = pino({ level: 'silent' });
    const earlier = new ControlState(journal, silent);
    earlier.setPaused('b', true);
    earlier.record({
      at,
      who: 'dashboard',
      action: 'pause',
      strategy: 'b',
      outcome: 'done',
      detail: '',
    });
    earlier.setPaused('c', true);
    const kernel = {
      clock: { now: () => at },
      strategyStatus: () => ({ a: 'running', b: 'running', c: 'running' }),
      controlState: new ControlState(journal, silent),
      engine: { killed: false, positions: { positions: () => [] } },
    } as unknown as Kernel;
    const n = await Notifier.fromConfig(
      config(`notify:\n  webhook: { url: "${receiver.url}" }\n`),
      {
        logger: silent,
      },
    );
    n?.started(kernel);
    await receiver.waitFor(1);
    await n?.stop(AbortSignal.timeout(3_000));
    const [start] = receiver.received;
    expect(String(start?.json.text)).toMatch(
      /bot started \(live\): a, b, c\npaused: b \(by dashboard\), c \(by unknown\); no new entries until resumed \(dashboard or \/resume\)\nno open positions$/,
    );
    expect(start?.json.data).toMatchObject({
      event: 'started',
      strategies: ['a', 'b', 'c'],
      paused: [{ strategy: 'b', by: 'dashboard' }, { strategy: 'c' }],
    });
  });
});
