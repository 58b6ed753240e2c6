import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backtestSectionSchema, loadBacktestSpec } from '../../src/backtest/backtest-spec.ts';
import { analyze } from '../../src/backtest/report/analysis.ts';
import { MARKER_COLORS } from '../../src/backtest/report/trade-markers.ts';
import { type BacktestResult, runBacktest } from '../../src/backtest/run-backtest.ts';
import { writeReport } from '../../src/backtest/write-report.ts';
import { parseConfig } from '../../src/config/load-config.ts';
import { hasChromium, launchChromium } from '../helpers/chromium.ts';
import { SBIN, writeCandleFixture } from './candle-replay-fixture.ts';

/** Runs a spec, writes its report and opens it; errors and off-file requests are kept. */
async function open(browser: Browser, specFile: string) {
  return openResult(browser, await runBacktest(await loadBacktestSpec(specFile)));
}

/** Writes a run's report and opens it. */
async function openResult(browser: Browser, result: BacktestResult) {
  const { html } = await writeReport(result, mkdtempSync(join(tmpdir(), 'tr-html-')));
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(pathToFileURL(html).href);
  // Expressions as text: the project's TypeScript has no DOM lib.
  await page.waitForFunction('window.__chartsReady === true');
  return { result, page, errors, requests };
}

const canvasSizes = async (page: Page, selector: string): Promise<[number, number][]> =>
  (await page.evaluate(
    `[...document.querySelectorAll('${selector} canvas')].map((c) => [c.width, c.height])`,
  )) as [number, number][];

const rows = (page: Page, id: string): Promise<number> => page.locator(`#${id} tbody tr`).count();

// CI installs Debian's chromium (.ci/apt-packages); without it there is nothing to drive.
describe.skipIf(!hasChromium())('HTML report in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('renders the equity, drawdown and price charts offline, without page errors', async () => {
    const { result, page, errors, requests } = await open(
      browser,
      'backtests/opening-range-breakout.yaml',
    );
    for (const id of ['equity', 'drawdown', 'price-2885']) {
      const sizes = await canvasSizes(page, `#${id}`);
      expect(sizes.length, `${id} has canvases`).toBeGreaterThan(0);
      expect(sizes.some(([w, h]) => w > 100 && h > 100)).toBe(true);
    }
    expect(await rows(page, 'trades')).toBe(result.trades.length);
    // ₹ with Indian grouping: the capital of ₹10,00,000.
    expect(await page.locator('#summary').textContent()).toContain('₹10,00,000.00');
    // Every param the strategy ran with, defaults included, and the spec as written.
    const params = await page.locator('#params').textContent();
    for (const name of ['symbol', 'rangeMinutes', 'quantity', 'stopPoints']) {
      expect(params).toContain(name);
    }
    expect(await page.locator('#spec-text').textContent()).toContain('orb.rangeMinutes');
    expect(await page.locator('#fill-model').textContent()).toContain('a tick recording');
    // The trades table fits a 1,400 px window (one strategy: no Strategy column).
    await page.setViewportSize({ width: 1400, height: 900 });
    const width = (await page.evaluate(
      `document.querySelector('#trades').getBoundingClientRect().right`,
    )) as number;
    expect(width).toBeLessThanOrEqual(1400);
    expect(errors).toEqual([]);
    expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
    await page.close();
  }, 120_000);

  it('marks every fill, shows plots, breakdowns, daily returns, the benchmark and a negative drawdown axis, and resizes', async () => {
    const { result, page, errors } = await open(browser, 'backtests/rsi-reversion.yaml');
    const tokens = [...new Set(result.fills.map((f) => f.token))];
    expect(tokens.length).toBeGreaterThan(1);
    // A price chart per traded instrument, titled by symbol, with a marker per fill.
    for (const t of tokens) {
      const sizes = await canvasSizes(page, `#price-${t}`);
      expect(
        sizes.some(([w, h]) => w > 100 && h > 100),
        `price chart of ${t}`,
      ).toBe(true);
    }
    const symbols = await page.evaluate(
      `[...document.querySelectorAll('#prices [data-symbol]')].map((d) => d.dataset.symbol)`,
    );
    expect(new Set(symbols as string[])).toEqual(new Set(result.fills.map((f) => f.symbol)));
    // One marker per trade entry and per exit (not per fill), none in the candles' colours.
    const markers = (await page.evaluate(
      `Object.values(window.__charts.prices).flatMap((p) => p.markers.markers())`,
    )) as { color: string; size: number }[];
    const closed = result.trades.filter((t) => t.closedAt !== undefined).length;
    expect(markers.length).toBe(result.trades.length + closed);
    expect(markers.every((m) => !['#0a7f3f', '#c0262d'].includes(m.color) && m.size >= 2)).toBe(
      true,
    );
    // Entries and exits differ: both kinds are on the page.
    const colors = new Set(markers.map((m) => m.color));
    expect(colors.has(MARKER_COLORS.longEntry) || colors.has(MARKER_COLORS.shortEntry)).toBe(true);
    expect(colors.has(MARKER_COLORS.longExit) || colors.has(MARKER_COLORS.shortExit)).toBe(true);
    // The RSI plots (0..100, not prices) each get a pane below their instrument's candles.
    const panes = (await page.evaluate(
      `Object.values(window.__charts.prices).map((p) => p.chart.panes().length)`,
    )) as number[];
    expect(panes.every((n) => n === 2)).toBe(true);
    // MAE/MFE from the prices sampled in the run bound each trade's own move.
    const trades = analyze(result).trades;
    for (const t of trades) {
      const move = (t.exitPrice - t.entryPrice) * t.quantity * (t.direction === 'long' ? 1 : -1);
      expect(t.mae).toBeLessThanOrEqual(Math.min(0, move));
      expect(t.mfe).toBeGreaterThanOrEqual(Math.max(0, move));
      expect(t.exitReason).toBe('strategy exit');
    }
    expect(trades.some((t) => t.mae < 0 && t.mfe > 0)).toBe(true);
    // Effective params say where each value came from: the strategy's default or the spec.
    const sources = Object.fromEntries(
      (await page.evaluate(
        `[...document.querySelectorAll('#params tbody tr')].map((r) => [r.cells[1].textContent, r.cells[3].textContent])`,
      )) as [string, string][],
    );
    expect(sources).toMatchObject({ exchange: 'default', interval: 'default', oversold: 'spec' });
    // By symbol and by strategy, with every trade counted once.
    expect(await rows(page, 'by-symbol')).toBe(new Set(result.trades.map((t) => t.symbol)).size);
    expect(await rows(page, 'by-strategy')).toBe(1);
    expect(await page.locator('#by-strategy tbody tr td').nth(1).textContent()).toBe(
      String(result.summary.trades),
    );
    // The sample is one day: one daily return, ₹ in Indian grouping.
    expect(await rows(page, 'daily')).toBe(1);
    expect(await page.locator('#daily').textContent()).toMatch(/2026-11-20\s*₹10,00,000\.00/);
    // The benchmark: buy and hold of the first traded symbol, on the equity chart.
    const bench = (await page.evaluate(`window.__charts.equity.benchmark.data().length`)) as number;
    expect(bench).toBeGreaterThan(100);
    // The drawdown reads below zero, as a percentage, on its axis.
    const dd = (await page.evaluate(`(() => {
      const s = window.__charts.drawdown.chart.panes()[0].getSeries()[0];
      const values = s.data().map((p) => p.value);
      const min = Math.min(...values);
      return { max: Math.max(...values), min, label: s.priceFormatter().format(min) };
    })()`)) as { max: number; min: number; label: string };
    expect(dd.max).toBeLessThanOrEqual(0);
    expect(dd.min).toBeLessThan(0);
    expect(dd.label).toMatch(/^-\d+\.\d{2}%$/);
    // …and its axis tops out at 0 %: 0 sits at the pane's top edge, no headroom above it.
    const zeroY = (await page.evaluate(
      `window.__charts.drawdown.chart.panes()[0].getSeries()[0].priceToCoordinate(0)`,
    )) as number;
    expect(zeroY).toBeLessThanOrEqual(2);
    // A click on a header sorts the table by that column (amounts read as numbers).
    const nets = async (): Promise<number[]> =>
      (
        (await page.evaluate(
          `(() => {
            const col = [...document.querySelectorAll('#trades thead th')].findIndex((h) => h.textContent === 'Net');
            return [...document.querySelectorAll('#trades tbody tr')].map((r) => r.cells[col].textContent);
          })()`,
        )) as string[]
      ).map((t) => Number(t.replace(/[₹,]/g, '')));
    await page.locator('#trades thead th', { hasText: 'Net' }).click();
    const sorted = await nets();
    expect(sorted.length).toBeGreaterThan(2);
    expect(sorted).toEqual([...sorted].sort((a, b) => a - b));
    await page.locator('#trades thead th', { hasText: 'Net' }).click();
    expect(await nets()).toEqual([...sorted].reverse());
    // The charts follow the window.
    const before = (await canvasSizes(page, '#equity'))[0]?.[0] ?? 0;
    expect(before).toBeGreaterThan(700);
    await page.setViewportSize({ width: 700, height: 900 });
    await page.waitForFunction(
      `document.querySelector('#equity canvas').width < ${before}`,
      undefined,
      { timeout: 5_000 },
    );
    const after = (await canvasSizes(page, '#equity'))[0]?.[0] ?? 0;
    expect(after).toBeLessThan(before);
    expect(after).toBeGreaterThan(100);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('opens a run of three months on the whole run, in 15-minute bars, with its trades marked', async () => {
    const data = join(mkdtempSync(join(tmpdir(), 'tr-html-months-')), 'months');
    await writeCandleFixture(data, {
      from: '2026-01-01',
      to: '2026-03-31',
      instruments: [SBIN],
      seed: 15,
    });
    const file = resolve('config/report-months.yaml');
    const config = parseConfig(
      `
mode: paper
strategies:
  - id: sma
    module: ../strategies/sma-crossover.ts
    params: { symbol: SBIN-EQ, fast: 5, slow: 20, interval: 15m, quantity: 100 }
logging: { level: silent, summaryIntervalSeconds: 0 }
`,
      file,
      {},
    );
    const result = await runBacktest({
      file,
      name: 'report-months',
      projectDir: process.cwd(),
      config,
      backtest: backtestSectionSchema.parse({ data, logLevel: 'silent' }),
    });
    expect(result.trades.length).toBeGreaterThan(20);
    const { page, errors } = await openResult(browser, result);
    // Every chart opens on its first and last point: ~60 sessions of 1-minute data
    // (22,000 bars) would open on the last few days (the charts' minimum bar spacing).
    const ranges = (await page.evaluate(`(() => {
      const range = (chart) => {
        const s = chart.panes()[0].getSeries()[0];
        const v = chart.timeScale().getVisibleRange();
        return { first: s.data()[0].time, last: s.data().at(-1).time, from: v.from, to: v.to };
      };
      return [range(window.__charts.equity.chart), range(window.__charts.drawdown.chart),
        ...Object.values(window.__charts.prices).map((p) => range(p.chart))];
    })()`)) as { first: number; last: number; from: number; to: number }[];
    expect(ranges.length).toBe(3);
    for (const r of ranges) {
      expect(r.from).toBeLessThanOrEqual(r.first);
      expect(r.to).toBeGreaterThanOrEqual(r.last);
      expect(r.last - r.first).toBeGreaterThan(80 * 86_400);
    }
    // The page says the charts are coarser than the data.
    expect(await page.evaluate(`document.querySelector('.resolution').dataset.resolution`)).toBe(
      '15m',
    );
    expect(
      await page.locator('#equity').evaluate((e) => e.previousElementSibling?.textContent),
    ).toContain('15-minute bars');
    const markers = (await page.evaluate(
      `Object.values(window.__charts.prices).reduce((n, p) => n + p.markers.markers().length, 0)`,
    )) as number;
    expect(markers).toBe(
      result.trades.length + result.trades.filter((t) => t.closedAt !== undefined).length,
    );
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);
});
