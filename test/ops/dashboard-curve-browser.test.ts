import pino from 'pino';
import type { Browser, Page } from 'playwright-core';
import { Subject } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDashboard, startDashboard } from '../../src/ops/dashboard/dashboard-server.ts';
import { quietStatus as status } from '../helpers/bot-status.ts';
import { hasChromium, launchChromium } from '../helpers/chromium.ts';

// The dashboard's PnL curve in a real page: the whole curve with the push stream's first
// event, then only its end with each update, drawn point by point; a new day (or a push
// the page missed) makes the page fetch the whole curve again.
// How I checked it can fail: with the page adding every update's newest point without
// comparing the curve's start and count, the new day's first point was drawn after
// yesterday's (5 points, not 1); with `update()` sending an empty `pnl`, the curve stayed
// at its first point.
describe.skipIf(!hasChromium())('dashboard PnL curve in headless Chromium', () => {
  let browser: Browser;
  let dashboard: RunningDashboard;
  const changes = new Subject<void>();
  let now = Date.parse('2026-11-20T09:20:00+05:30');
  let realised = 0;
  beforeAll(async () => {
    dashboard = await startDashboard({
      controls: {
        changes$: changes.asObservable(),
        status: () => status(now, realised),
        pauseStrategy: () => ({ at: 0, who: '', action: 'pause', outcome: 'done', detail: '' }),
        resumeStrategy: () => ({ at: 0, who: '', action: 'resume', outcome: 'done', detail: '' }),
        squareOff: async () => ({
          at: 0,
          who: '',
          action: 'squareOff',
          outcome: 'done',
          detail: '',
        }),
        squareOffAll: async () => ({
          at: 0,
          who: '',
          action: 'squareOffAll',
          outcome: 'done',
          detail: '',
        }),
        tripKillSwitch: () => ({
          at: 0,
          who: '',
          action: 'killSwitch',
          outcome: 'done',
          detail: '',
        }),
        brokerPositions: async () => [],
      },
      config: { port: 0, host: '127.0.0.1', token: 'curve-test-token-0123456789' },
      logger: pino({ level: 'silent' }),
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await dashboard?.close();
  });

  const chart = async (page: Page) => ({
    refetches: await page.locator('#chart').getAttribute('data-refetches'),
  });
  /** Waits (bounded) until the chart shows `points` points ending at `value` paise. */
  const drawn = (page: Page, points: number, value: number) =>
    page.waitForFunction(
      `(() => { const d = document.getElementById('chart').dataset; return d.points === '${points}' && d.value === '${value}'; })()`,
      undefined,
      { timeout: 5_000 },
    );

  it('adds each update’s point, and fetches the whole curve on a new day', async () => {
    realised = 1_000;
    const open = async () => {
      const page = await browser.newPage();
      const fetched: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/api/status')) fetched.push(r.url());
      });
      await page.goto(`${dashboard.url}/?token=curve-test-token-0123456789`);
      return { page, fetched };
    };
    const a = await open();
    await drawn(a.page, 1, 1_000);
    // Each step waits for the page to draw it: at most one push throttle (250 ms) apart.
    for (let i = 1; i <= 3; i++) {
      now += 5_000;
      realised += 100;
      changes.next();
      await drawn(a.page, 1 + i, 1_000 + 100 * i);
    }
    // A later sample in the same 5 s bucket moves the newest point, adds none.
    now += 1_000;
    realised += 50;
    changes.next();
    await drawn(a.page, 4, 1_350);
    expect((await chart(a.page)).refetches).toBe('0');
    expect(a.fetched).toEqual([]);

    // A page opened now gets the whole curve with its first event.
    const b = await open();
    await drawn(b.page, 4, 1_350);

    // The next day the curve starts afresh: each page fetches it whole, once.
    now += 86_400_000;
    realised = 7;
    changes.next();
    for (const { page, fetched } of [a, b]) {
      await drawn(page, 1, 7);
      expect((await chart(page)).refetches).toBe('1');
      expect(fetched).toHaveLength(1);
      await page.close();
    }
  });

  it('follows a curve at its cap (6 000 points, the oldest dropped) without fetching it again', async () => {
    // Each snapshot samples the curve: 6 000 five-second buckets through the API
    // in-process, then a page, then one more point (the curve keeps 6 000).
    // How I checked it can fail: without the cap case in the page's follow-on test, the
    // page fetched the whole curve again (refetches 1).
    now = Date.parse('2026-11-23T00:00:00+05:30');
    const bearer = { authorization: 'Bearer curve-test-token-0123456789' };
    for (let i = 0; i < 6_000; i++) {
      now += 5_000;
      realised = i;
      await dashboard.app.request('/api/status', { headers: bearer });
    }
    const page = await browser.newPage();
    await page.goto(`${dashboard.url}/?token=curve-test-token-0123456789`);
    await drawn(page, 6_000, 5_999);
    now += 5_000;
    realised = 42;
    changes.next();
    await drawn(page, 6_000, 42);
    expect((await chart(page)).refetches).toBe('0');
    await page.close();
  });
});
