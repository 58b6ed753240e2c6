import { describe, expect, it } from 'vitest';
import type { OrderBookRecord, TradeBookRecord } from '../api/schemas/order-records.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { memoryLogger } from '../market-data/testing/fake-quote-source.ts';
import { ExecutionEngine } from './execution-engine.ts';
import { OPEN_SESSION, placeIntent, scriptedBroker } from './testing/engine-fixtures.ts';

describe('ExecutionEngine: marking on a fill', () => {
  it('marks positions once per fill, before the fill is published', async () => {
    // Checked to fail: with afterFill called after publishing (as before), the
    // subscriber sees the position unmarked (unrealised 0) and the first assertion breaks.
    const { broker, placed } = scriptedBroker();
    const filled = () => [
      {
        id: 'N1',
        tags: placed[0]?.tag ?? '',
        orderStatus: 'COMPLETE',
        quantity: '1',
        price: '0',
        fillShares: '1',
        rejectReason: '',
        snoOrderDirection: '',
        snoOrderID: '',
      } as OrderBookRecord,
    ];
    const fill = {
      id: 'N1',
      fillID: 'f1',
      fillQuantity: '1',
      fillShares: '1',
      fillPrice: '800.00',
      averagePrice: '800.00',
    } as TradeBookRecord;
    broker.orderBook = async () => filled();
    broker.tradeBook = async () => [fill];
    let looks = 0;
    const engine = new ExecutionEngine({
      broker,
      clock: new VirtualClock(Date.parse('2026-11-20T10:00:00+05:30')),
      logger: memoryLogger().logger,
      sessions: OPEN_SESSION,
      quote: () => {
        looks += 1;
        return { ltp: 81_000, lowerLimit: 0, upperLimit: 0 };
      },
    });
    const seen: number[] = [];
    engine.events$.subscribe((e) => {
      if (e.type === 'OrderFilled') seen.push(engine.positions.totals().unrealised);
    });
    await engine.submit(placeIntent('e1'));
    looks = 0;
    await engine.poll();
    expect(seen).toEqual([1_000]);
    expect(looks).toBe(1);
  });
});
