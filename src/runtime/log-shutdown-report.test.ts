import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { TrackedOrder } from '../execution/tracked-order.ts';
import { logShutdownReport, SHUTDOWN_LOG } from './log-shutdown-report.ts';

describe('logShutdownReport', () => {
  it('logs one line per position and per order, in rupees and by symbol, then `stopped`', () => {
    const lines: Array<Record<string, unknown>> = [];
    const log = pino({}, { write: (l: string) => lines.push(JSON.parse(l)) });
    const stop = {
      strategyId: 'straddle',
      intentId: 'p1/stop',
      tag: 'straddle-a-1/SL',
      orderId: '42',
      status: 'open',
      quantity: 75,
      filledQuantity: 0,
      intent: {
        kind: 'place',
        id: 'p1/stop',
        instrument: { exchange: 'NFO', token: 111, symbol: 'NIFTY25NOV24000CE' },
        side: 'B',
        quantity: 75,
        orderType: 'SL-MKT',
        product: 'I',
        bookLossPrice: 15_625,
      },
    } as unknown as TrackedOrder;
    logShutdownReport(
      log,
      {
        policy: 'cancel-entries',
        positions: [
          {
            strategyId: 'straddle',
            token: 111,
            symbol: 'NIFTY25NOV24000CE',
            netQuantity: -75,
            averagePrice: 12_050,
            realised: 0,
            unrealised: -7_500,
            lastPrice: 12_150,
          },
        ],
        orders: [{ order: stop, role: 'protective' }],
        unfinished: [],
        booksRead: true,
      },
      12,
    );
    expect(lines.map((l) => l.msg)).toEqual([
      SHUTDOWN_LOG.position,
      SHUTDOWN_LOG.order,
      SHUTDOWN_LOG.stopped,
    ]);
    expect(lines[0]).toMatchObject({
      event: 'open-position',
      symbol: 'NIFTY25NOV24000CE',
      quantity: -75,
      averagePrice: '₹120.50',
      unrealised: '-₹75.00',
    });
    expect(lines[1]).toMatchObject({
      event: 'open-order',
      symbol: 'NIFTY25NOV24000CE',
      side: 'B',
      triggerPrice: '₹156.25',
      role: 'protective',
    });
    expect(lines[2]).toMatchObject({
      event: 'stopped',
      openPositions: 1,
      openOrders: 1,
      level: 30,
    });
  });
});
