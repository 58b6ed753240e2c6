import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotStatus } from '../../src/runtime/bot-controls.ts';
import { hasChromium, launchChromium } from '../helpers/chromium.ts';
import { type Child, killAll, REPO, spawnRunner, waitForExit } from './helpers/child-process.ts';

/** A paper bot on the embedded simulator, with a dashboard on any free loopback port. */
function writeConfig(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tr-dash-'));
  const file = join(dir, 'bot.yaml');
  writeFileSync(
    file,
    `mode: paper
broker:
  baseUrl: embedded
  sim: { seed: 42, speed: 10 }
marketData: { intervalMs: 1000 }
strategies:
  - id: flat
    module: ${join(REPO, 'test/fixtures/strategies/buy-when-flat.ts')}
execution: { trackIntervalMs: 1000 }
state: { dir: ${join(dir, 'state')} }
dashboard: { port: 0, host: 127.0.0.1, token: "" }
logging: { format: json, summaryIntervalSeconds: 0 }
`,
  );
  return file;
}

/** Polls `probe` every 100 ms (real time) until it returns a value; throws after `ms`. */
async function eventually<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  ms: number,
  what: string,
): Promise<T> {
  const give = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > give) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const completeRows = (page: Page) => page.locator('#recent tr[data-status="complete"]').count();

describe.skipIf(!hasChromium())('e2e: the live dashboard in Chromium', { timeout: 120_000 }, () => {
  let browser: Browser;
  let bot: Child;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await killAll();
  });

  it('pushes fills without a reload, squares off all from the page, and answers 401 without the token', async () => {
    bot = spawnRunner(['run', '--config', writeConfig()]);
    const url = await eventually(
      () => /dashboard: (http:\/\/127\.0\.0\.1:\d+)\/\?token=(\S+)/.exec(bot.stderr()) ?? undefined,
      30_000,
      'the dashboard URL on stderr',
    );
    const [, base, token] = url as unknown as [string, string, string];
    const bearer = { authorization: `Bearer ${token}` };
    const api = async <T>(path: string, method = 'GET'): Promise<T> => {
      const res = await fetch(`${base}${path}`, { method, headers: bearer });
      expect(res.status, `${method} ${path}`).toBe(200);
      return (await res.json()) as T;
    };

    // Without the token: 401, page and API alike.
    for (const path of ['/', '/api/status', '/api/events', `/?token=${token}x`])
      expect((await fetch(`${base}${path}`)).status, path).toBe(401);
    expect((await fetch(`${base}/api/square-off-all`, { method: 'POST' })).status).toBe(401);

    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('dialog', (d) => void d.accept());
    await page.goto(`${base}/?token=${token}`);
    // The token leaves the address bar: the cookie carries on.
    expect(page.url()).toBe(`${base}/`);
    await page.evaluate('window.__sameDocument = true');
    await page.locator('#link', { hasText: 'live' }).waitFor({ timeout: 15_000 });
    // The strategy's first buy shows up (pushed, or already there at load).
    await page.locator('#positions tr[data-net="10"]').waitFor({ timeout: 30_000 });
    const before = await completeRows(page);

    // A square-off of the one position by API: the exit and the re-entry fills are pushed.
    await api('/api/positions/3045/square-off', 'POST');
    await eventually(
      async () => ((await completeRows(page)) >= before + 2 ? true : undefined),
      30_000,
      'two more fills on the page',
    );
    expect(await page.evaluate('window.__sameDocument')).toBe(true);

    // Square off all from the page: everything flat at the broker, and it stays flat.
    await page.locator('#square-off-all').click();
    await page
      .locator('#strategies tr[data-strategy="flat"][data-paused="true"]')
      .waitFor({ timeout: 15_000 });
    await eventually(
      async () => {
        const s = await api<BotStatus>('/api/status');
        const nets = await api<{ netQuantity: number }[]>('/api/broker-positions');
        const flat = s.orders.working.length === 0 && s.positions.every((p) => p.netQuantity === 0);
        return flat && nets.length > 0 && nets.every((n) => n.netQuantity === 0) ? true : undefined;
      },
      30_000,
      'flat positions at the broker',
    );
    await page.locator('#positions tr[data-net="0"]').waitFor({ timeout: 15_000 });
    const status = await api<BotStatus>('/api/status');
    expect(status.controls.at(-1)).toMatchObject({ action: 'squareOffAll', outcome: 'done' });
    expect(status.controls.at(-1)?.who).toMatch(/^dashboard/);
    expect(errors).toEqual([]);

    bot.signal('SIGINT');
    expect((await waitForExit(bot, 30_000)).code).toBe(0);
    // The control is logged with who asked; the token never is.
    const log = bot.lines.join('\n');
    expect(log).toMatch(/control: squareOffAll/);
    expect(log).not.toContain(token);
    // Nothing re-entered after the square-off: the last fill was the exit.
    expect(status.positions.every((p) => p.netQuantity === 0)).toBe(true);
  });
});
