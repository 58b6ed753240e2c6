import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Summary } from '../../src/backtest/metrics.ts';
import { sweepHtml } from '../../src/backtest/sweep-html.ts';
import type { SweepResult } from '../../src/backtest/sweep-protocol.ts';
import { rankResults } from '../../src/backtest/sweep-runner.ts';

const CHROMIUM = '/usr/bin/chromium';

/** A finished run of the grid point (fast, slow) with these figures (money in paise). */
function run(
  id: number,
  fast: number,
  slow: number,
  netPnl: number,
  extra: Partial<Summary> = {},
): SweepResult {
  const summary = {
    netPnl,
    returnPercent: netPnl / 10_000_000,
    sharpe: netPnl / 100_000,
    winRate: 50,
    profitFactor: 1.5,
    maxDrawdown: 250_000,
    maxDrawdownPercent: 0.25,
    trades: 4,
    rejected: 0,
    denied: 0,
    ...extra,
  } as Summary;
  const params = { 'sma.fast': fast, 'sma.slow': slow };
  return { type: 'result', id, params, ok: true, summary, elapsedMs: 10 };
}

/**
 * A 2 × 3 grid: one run had a rejection (best net, ranked last), one had denials (risk rules:
 * counted, not demoted), one failed.
 */
const RESULTS: SweepResult[] = rankResults(
  [
    run(0, 3, 8, 120_000),
    run(1, 3, 13, -50_000),
    run(2, 3, 21, 100_000_000, { rejected: 1 }),
    run(3, 5, 8, 300_000),
    run(4, 5, 13, 10_000, { denied: 3 }),
    { type: 'result', id: 5, params: { 'sma.fast': 5, 'sma.slow': 21 }, ok: false, error: 'boom' },
  ],
  'netPnl',
);

const texts = (page: Page, selector: string): Promise<string[]> =>
  page.locator(selector).allTextContents();

// CI installs Debian's chromium (.ci/apt-packages); without it there is nothing to drive.
describe.skipIf(!existsSync(CHROMIUM))('sweep.html in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('sorts the runs by any column, draws the heatmap, offline and without errors', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'tr-sweep-html-')), 'sweep.html');
    writeFileSync(file, sweepHtml({ spec: 'sma-crossover', rankBy: 'netPnl', results: RESULTS }));
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(file).href);
    await page.waitForFunction('window.__sweepReady === true');

    // Ranked: runs without rejections by net PnL (the denied one in its place), the rejected
    // one after them, the failure last.
    const ids = () =>
      page.locator('#runs tbody tr').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-id')));
    expect(await ids()).toEqual(['3', '0', '4', '1', '2', '5']);
    expect(await page.locator('#runs tbody tr.rejected').count()).toBe(1);
    expect(await page.locator('#runs tbody tr.failed').count()).toBe(1);
    // ₹ with Indian grouping in the table: ₹10,00,000.00 for 100,000,000 paise.
    expect(await page.locator('#runs tbody tr[data-id="2"]').textContent()).toContain(
      '₹10,00,000.00',
    );
    expect(await page.locator('#sweep-note').textContent()).toContain(
      '1 had orders rejected by the venue or the engine (marked ⚠): ranked after the others.',
    );

    // A click on Net PnL sorts by it descending (the rejected run's big net first), again ascending.
    const netHeader = page.locator('#runs th[data-key="netPnl"]');
    await netHeader.click();
    expect(await ids()).toEqual(['2', '3', '0', '4', '1', '5']);
    expect(await netHeader.getAttribute('aria-sort')).toBe('descending');
    await netHeader.click();
    expect(await ids()).toEqual(['1', '4', '0', '3', '2', '5']);
    // A param column sorts by the param.
    await page.locator('#runs th[data-key="p:sma.slow"]').click();
    expect((await ids()).slice(0, 2).sort()).toEqual(['0', '3']);

    // The heatmap: fast across, slow down; one cell per grid point, the failed one empty.
    expect(await texts(page, '#heatmap tr:first-child th')).toEqual([
      'sma.slow ↓ / sma.fast →',
      '3',
      '5',
    ]);
    expect(await page.locator('#heatmap td.cell:not(.empty)').count()).toBe(5);
    expect(await page.locator('#heatmap td.empty').count()).toBe(1);
    const best = page.locator('#heatmap td.cell', { hasText: '₹3,000.00' });
    expect(await best.getAttribute('title')).toContain('sma.fast=5, sma.slow=8');
    const colours = await page
      .locator('#heatmap td.cell:not(.empty)')
      .evaluateAll((cs) =>
        cs.map((c) => (c as unknown as { style: { background: string } }).style.background),
      );
    expect(new Set(colours).size).toBeGreaterThan(2);
    expect(await page.locator('#heatmap td.rejected').textContent()).toContain('⚠');

    // Another metric and the axes swapped redraw the grid.
    await page.selectOption('#hm-metric', 'maxDrawdown');
    await page.selectOption('#hm-x', 'sma.slow');
    await page.selectOption('#hm-y', 'sma.fast');
    expect(await texts(page, '#heatmap tr:first-child th')).toEqual([
      'sma.fast ↓ / sma.slow →',
      '8',
      '13',
      '21',
    ]);
    expect(await page.locator('#heatmap td.cell', { hasText: '₹2,500.00' }).count()).toBe(5);

    expect(errors).toEqual([]);
    expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
    await page.close();
  }, 60_000);
});
