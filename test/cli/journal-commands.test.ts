import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteJournal } from '../../src/execution/sqlite-journal.ts';
import type { TrackedOrder } from '../../src/execution/tracked-order.ts';
import { runCli } from './run-cli.ts';

/** 2026-11-23 09:16:01 IST. */
const T0 = Date.parse('2026-11-23T09:16:01+05:30');

function order(
  over: Partial<TrackedOrder> & Pick<TrackedOrder, 'tag' | 'intentId'>,
  product: 'I' | 'C' = 'C',
): TrackedOrder {
  return {
    strategyId: 's1',
    variety: 'regular',
    intent: {
      kind: 'place',
      id: over.intentId,
      instrument: { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ' },
      side: 'B',
      quantity: 10,
      orderType: 'LMT',
      price: 80_000,
      product,
    },
    request: {} as TrackedOrder['request'],
    orderId: '1000000001',
    status: 'complete',
    quantity: 10,
    filledQuantity: 10,
    fills: new Set(['f1']),
    replacements: 0,
    modifications: 0,
    placedAt: T0,
    acceptedSeen: true,
    openedSeen: true,
    ...over,
  };
}

/**
 * A live config whose credentials are `${...}` placeholders (unset in these tests) and a
 * journal with a filled entry, a partial exit and a working stop-loss order.
 */
function liveConfigWithJournal(options: { lastPrice?: number; product?: 'I' | 'C' } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'tr-cli-'));
  const configDir = join(dir, 'config');
  const stateDir = join(dir, 'state');
  const file = join(configDir, 'live.yaml');
  mkdirSync(configDir);
  writeFileSync(
    file,
    `mode: live\nbroker: { baseUrl: "https://api.tiqs.trading", appId: "\${TIQS_APP_ID}", token: "\${TIQS_ACCESS_TOKEN}" }\nstrategies: [{ id: s1, module: x.ts }]\nstate: { dir: ${stateDir} }\n`,
  );
  const journal = new SqliteJournal(join(stateDir, 'journal.sqlite'));
  const entry = order({ tag: 's1-abc-1', intentId: 'p1' }, options.product);
  const stop = order({
    tag: 's1-abc-3',
    intentId: 'p1-sl',
    intent: {
      kind: 'place',
      id: 'p1-sl',
      instrument: { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ' },
      side: 'S',
      quantity: 6,
      orderType: 'SL-LMT',
      price: 78_950,
      triggerPrice: 79_000,
      product: options.product ?? 'C',
    },
    orderId: '1000000003',
    status: 'open',
    quantity: 6,
    filledQuantity: 0,
    fills: new Set(),
    placedAt: T0 + 60_000,
  });
  // The partial exit's own order (only for an intraday journal: the tests of the tables
  // list the entry and the stop alone).
  const exit = order(
    {
      tag: 's1-abc-2',
      intentId: 'p1-x',
      orderId: '1000000002',
      quantity: 4,
      filledQuantity: 4,
      fills: new Set(['f2']),
      placedAt: T0 + 1,
    },
    'I',
  );
  exit.intent = { ...exit.intent, side: 'S', quantity: 4 };
  const orders = options.product === 'I' ? [entry, stop, exit] : [entry, stop];
  journal.commit({ orders, at: T0 });
  const fill = { tag: entry.tag, strategyId: 's1', token: 3045, symbol: 'SBIN-EQ' } as const;
  journal.commit({
    at: T0,
    fill: { ...fill, fillId: 'f1', side: 'B', quantity: 10, price: 80_000, at: T0 },
  });
  journal.commit({
    at: T0 + 1,
    fill: {
      ...fill,
      fillId: 'f2',
      tag: 's1-abc-2',
      side: 'S',
      quantity: 4,
      price: 80_500,
      at: T0 + 1,
    },
  });
  if (options.lastPrice !== undefined)
    journal.setMeta(
      'lastPrices',
      JSON.stringify({ 3045: { ltp: options.lastPrice, at: T0 + 300_000 } }),
    );
  journal.close();
  return file;
}

describe('tiqs-runner orders and positions', () => {
  const saved = { app: process.env.TIQS_APP_ID, token: process.env.TIQS_ACCESS_TOKEN };
  beforeEach(() => {
    // Journal readers need no credentials: the placeholders stay unset.
    delete process.env.TIQS_APP_ID;
    delete process.env.TIQS_ACCESS_TOKEN;
  });
  afterEach(() => {
    if (saved.app !== undefined) process.env.TIQS_APP_ID = saved.app;
    if (saved.token !== undefined) process.env.TIQS_ACCESS_TOKEN = saved.token;
  });

  it('print the journal state as JSON without credentials', async () => {
    const file = liveConfigWithJournal({ lastPrice: 81_000 });
    const orders = await runCli('orders', '--config', file, '--json');
    expect(orders.stderr).toBe('');
    expect(orders.code).toBe(0);
    expect(JSON.parse(orders.stdout)).toEqual([
      expect.objectContaining({
        tag: 's1-abc-1',
        orderId: '1000000001',
        status: 'complete',
        price: '800.00',
        triggerPrice: '',
        averagePrice: '800.00',
        filled: 10,
        placedAt: T0,
        placedAtIso: '2026-11-23T09:16:01.000+05:30',
      }),
      expect.objectContaining({
        tag: 's1-abc-3',
        type: 'SL-LMT',
        price: '789.50',
        triggerPrice: '790.00',
      }),
    ]);
    const positions = await runCli('positions', '--config', file, '--json');
    expect(positions.code).toBe(0);
    expect(JSON.parse(positions.stdout)).toEqual([
      expect.objectContaining({
        strategy: 's1',
        net: 6,
        average: '800.00',
        realised: '20.00',
        lastFill: '805.00',
        lastSeen: '810.00',
        lastSeenFrom: 'quote',
        lastSeenAtIso: '2026-11-23T09:21:01.000+05:30',
        // 6 × (810 − 800)
        unrealised: '60.00',
      }),
    ]);
  });

  it('print aligned tables: IST times, ₹ with Indian grouping, the stop trigger, unrealised PnL', async () => {
    const file = liveConfigWithJournal({ lastPrice: 81_000 });
    const orders = await runCli('orders', '--config', file);
    expect(orders.code).toBe(0);
    const lines = orders.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      /^placed \(IST\)\s+strategy\s+side\s+qty\s+symbol\s+type\s+price\s+trigger/,
    );
    expect(lines[1]).toMatch(
      /^2026-11-23 09:16:01\s+s1\s+BUY\s+10\s+SBIN-EQ\s+LMT C\s+₹800\.00\s+10\s+₹800\.00\s+complete\s+1000000001\s+p1$/,
    );
    expect(lines[2]).toMatch(
      /^2026-11-23 09:17:01\s+s1\s+SELL\s+6\s+SBIN-EQ\s+SL-LMT C\s+₹789\.50\s+₹790\.00\s+0\s+open\s+1000000003\s+p1-sl$/,
    );
    // Columns line up: each header starts where its cells start.
    expect(lines[1]?.indexOf('s1')).toBe(lines[0]?.indexOf('strategy'));
    expect(orders.stdout).not.toMatch(/\(index\)|'|"/);

    const positions = await runCli('positions', '--config', file);
    expect(positions.code).toBe(0);
    const [head, row, total] = positions.stdout.split('\n');
    expect(head).toMatch(
      /^strategy\s+symbol\s+net\s+average\s+last seen\s+seen at \(IST\)\s+unrealised\s+realised$/,
    );
    expect(row).toMatch(
      /^s1\s+SBIN-EQ\s+\+6\s+₹800\.00\s+₹810\.00\s+2026-11-23 09:21:01\s+₹60\.00\s+₹20\.00$/,
    );
    expect(total).toMatch(/^total\s+₹60\.00\s+₹20\.00$/);
    expect(positions.stdout).toContain('not a live price');
  });

  it('mark to the last fill when the journal has no newer quote', async () => {
    const file = liveConfigWithJournal();
    const positions = await runCli('positions', '--config', file, '--json');
    expect(JSON.parse(positions.stdout)).toEqual([
      expect.objectContaining({ lastSeen: '805.00', lastSeenFrom: 'fill', unrealised: '30.00' }),
    ]);
  });

  it('show an intraday position of an earlier day as closed, at its cost', async () => {
    // The entry is intraday (product I), filled on 2026-11-23; today is later. The broker
    // squared it off at its cut-off: the journal's reader must not show it open (a bot
    // reading the same journal would sell it again). Checked to fail with the book's
    // close taken out (positionRows without \`now\`): net +6 again.
    const file = liveConfigWithJournal({ lastPrice: 81_000, product: 'I' });
    const positions = await runCli('positions', '--config', file, '--json');
    expect(positions.code).toBe(0);
    expect(JSON.parse(positions.stdout)).toEqual([
      // 4 sold at ₹805 (₹20), the other 6 closed at their cost (the broker's price is not
      // known): ₹20 realised.
      expect.objectContaining({ net: 0, realised: '20.00', unrealised: '0.00' }),
    ]);
  });

  it('report a bad mode as a config error, and no journal yet as unavailable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tr-cli-'));
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'mode: lve\nstrategies: []\n');
    const r1 = await runCli('positions', '--config', bad);
    expect(r1.code).toBe(3);
    expect(r1.stderr).toContain('mode');
    const file = join(dir, 'paper.yaml');
    writeFileSync(
      file,
      `mode: paper\nstrategies: [{ id: s1, module: x.ts }]\nstate: { dir: ${join(dir, 'state')} }\n`,
    );
    const r = await runCli('orders', '--config', file);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('no journal');
  });
});
