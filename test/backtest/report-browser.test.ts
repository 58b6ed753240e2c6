import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loadBacktestSpec } from '../../src/backtest/backtest-spec.ts';
import { runBacktest } from '../../src/backtest/run-backtest.ts';
import { writeReport } from '../../src/backtest/write-report.ts';

const CHROMIUM = '/usr/bin/chromium';

describe('HTML report in headless Chromium', () => {
  // CI installs Debian's chromium (.ci/apt-packages); without it there is nothing to drive.
  it.skipIf(!existsSync(CHROMIUM))(
    'renders the equity and drawdown charts offline, without page errors',
    async () => {
      const spec = await loadBacktestSpec('backtests/opening-range-breakout.yaml');
      const result = await runBacktest(spec);
      const { html } = await writeReport(result, mkdtempSync(join(tmpdir(), 'tr-html-')));
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
        ],
      });
      try {
        const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
        const errors: string[] = [];
        const requests: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
        page.on('request', (r) => requests.push(r.url()));
        await page.goto(pathToFileURL(html).href);
        // Expressions as text: the project's TypeScript has no DOM lib.
        await page.waitForFunction('window.__chartsReady === true');
        for (const id of ['equity', 'drawdown']) {
          const sizes = (await page.evaluate(
            `[...document.querySelectorAll('#${id} canvas')].map((c) => [c.width, c.height])`,
          )) as [number, number][];
          expect(sizes.length, `${id} has canvases`).toBeGreaterThan(0);
          expect(sizes.some(([w, h]) => w > 100 && h > 100)).toBe(true);
        }
        expect(await page.locator('#trades tr').count()).toBe(result.trades.length + 1);
        expect(errors).toEqual([]);
        expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
      } finally {
        await browser.close();
      }
    },
  );
});
