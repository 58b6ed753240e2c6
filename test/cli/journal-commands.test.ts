import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteJournal } from '../../src/execution/sqlite-journal.ts';
import type { TrackedOrder } from '../../src/execution/tracked-order.ts';
import { runCli } from './run-cli.ts';

function liveConfigWithJournal(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tr-cli-'));
  const configDir = join(dir, 'config');
  const stateDir = join(dir, 'state');
  const file = join(configDir, 'live.yaml');
  mkdirSync(configDir);
  writeFileSync(
    file,
    `mode: live\nbroker: { baseUrl: "https://api.tiqs.trading", appId: a, token: t }\nstrategies: [{ id: s1, module: x.ts }]\nstate: { dir: ${stateDir} }\n`,
  );
  const journal = new SqliteJournal(join(stateDir, 'journal.sqlite'));
  const order: TrackedOrder = {
    strategyId: 's1',
    intentId: 'p1',
    tag: 's1-abc-1',
    variety: 'regular',
    intent: {
      kind: 'place',
      id: 'p1',
      instrument: { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ' },
      side: 'B',
      quantity: 10,
      orderType: 'LMT',
      price: 80_000,
      product: 'I',
    },
    request: {} as TrackedOrder['request'],
    orderId: '1000000001',
    status: 'complete',
    quantity: 10,
    filledQuantity: 10,
    fills: new Set(['f1']),
    replacements: 0,
    modifications: 0,
    placedAt: 0,
    acceptedSeen: true,
    openedSeen: true,
  };
  journal.commit({ orders: [order], at: 0 });
  journal.commit({
    at: 0,
    fill: {
      fillId: 'f1',
      tag: order.tag,
      strategyId: 's1',
      token: 3045,
      symbol: 'SBIN-EQ',
      side: 'B',
      quantity: 10,
      price: 80_000,
      at: 0,
    },
  });
  journal.commit({
    at: 1,
    fill: {
      fillId: 'f2',
      tag: 's1-abc-2',
      strategyId: 's1',
      token: 3045,
      symbol: 'SBIN-EQ',
      side: 'S',
      quantity: 4,
      price: 80_500,
      at: 1,
    },
  });
  journal.close();
  return file;
}

describe('tiqs-runner orders and positions', () => {
  it('print the journal state', async () => {
    const file = liveConfigWithJournal();
    const orders = await runCli('orders', '--config', file, '--json');
    expect(orders.code).toBe(0);
    expect(JSON.parse(orders.stdout)).toEqual([
      expect.objectContaining({
        tag: 's1-abc-1',
        orderId: '1000000001',
        status: 'complete',
        price: '800.00',
        filled: 10,
      }),
    ]);
    const positions = await runCli('positions', '--config', file, '--json');
    expect(JSON.parse(positions.stdout)).toEqual([
      expect.objectContaining({ strategy: 's1', net: 6, average: '800.00', realised: '20.00' }),
    ]);
  });

  it('say so when there is no journal yet', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tr-cli-'));
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
