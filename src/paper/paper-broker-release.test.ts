import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fullQuote } from '../../test/helpers/fixtures.ts';
import { memoryRecording } from '../../test/helpers/memory-recording.ts';
import { ReplayMarket } from '../backtest/replay-market.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { PlaceIntent } from '../domain/intents.ts';
import { toPlaceRequest } from '../execution/wire-order.ts';
import { RecordReader } from '../recording/record-reader.ts';
import { RecordWriter } from '../recording/record-writer.ts';
import { PaperBroker } from './paper-broker.ts';

const T0 = Date.parse('2026-11-20T10:00:00+05:30');
/** A session that closes at 10:02 and opens again at 10:03 (a boundary while idle). */
const CLOSE = T0 + 120_000;
const REOPEN = T0 + 180_000;
const isOpen = (at: number): boolean => at < CLOSE || at >= REOPEN;

/**
 * SBIN's full quotes every 5 s for five minutes: asks of 100 a level from 802.00, then
 * from 801.02 at 10:00:10 (where a resting buy at 801.50 fills, eating into the book),
 * drifting up a paisa a quote.
 */
function recording(still = false) {
  const w = new RecordWriter(T0);
  let n = 0;
  for (let at = T0; at <= T0 + 300_000; at += 5_000, n++) {
    const best = at < T0 + 10_000 ? 80_200 : still ? 80_102 : 80_100 + n;
    w.quote(
      'full',
      {
        ...fullQuote,
        ltp: best - 5,
        asks: [0, 1, 2, 3, 4].map((i) => ({ price: best + i * 5, quantity: 100, orders: 1 })),
        bids: [0, 1, 2, 3, 4].map((i) => ({ price: best - 10 - i * 5, quantity: 100, orders: 1 })),
      },
      at,
    );
  }
  return memoryRecording(w, { startMs: T0, endMs: T0 + 300_000, records: n });
}

const order = (id: string, side: 'B' | 'S', quantity: number, price?: number): PlaceIntent => ({
  kind: 'place',
  id,
  instrument: { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ' },
  side,
  quantity,
  orderType: price === undefined ? 'MKT' : 'LMT',
  ...(price === undefined ? {} : { price }),
  product: 'I',
});

/** A backtest's paper venue over a replay of {@link recording}, letting go of its quotes or not. */
function venue(releaseIdleFeeds: boolean, still = false) {
  const clock = new VirtualClock(T0);
  const market = new ReplayMarket(recording(still), clock);
  const broker = new PaperBroker({
    clock,
    bus: market,
    hours: { isOpen },
    logger: pino({ level: 'silent' }),
    latencyMs: 250,
    announceChanges: true,
    releaseIdleFeeds,
  });
  return { clock, market, broker };
}

const SCRIPT: [number, PlaceIntent][] = [
  [2_500, order('rest', 'B', 150, 80_150)], // rests; fills at 10:00:10, eating the book
  [11_000, order('eat', 'B', 100)], // no quote since: the book that fill consumed
  [31_000, order('later', 'S', 120)], // quotes came while idle: the newest book
  [60_000, order('high', 'S', 10, 87_000)], // rests until the close expires it
  [200_000, order('reopened', 'B', 30)], // idle across the close and the open
];

/** The same orders against the same quotes, with the venue letting go of its quotes or not. */
async function run(
  releaseIdleFeeds: boolean,
  still = false,
  script: [number, PlaceIntent][] = SCRIPT,
) {
  const { clock, market, broker } = venue(releaseIdleFeeds, still);
  // A strategy's own follower of the LTP, as in a backtest.
  market.quote$(3045, 'ltp').subscribe();
  const placed: Promise<unknown>[] = [];
  for (const [at, intent] of script) {
    clock.scheduler.schedule(() => {
      placed.push(broker.placeOrder('regular', toPlaceRequest(intent, intent.id, false)));
    }, at);
  }
  await market.play(T0 + 300_000);
  await Promise.all(placed);
  const orders = await broker.orderBook();
  const trades = await broker.tradeBook();
  const histories = await Promise.all(orders.map((o) => broker.orderHistory(o.id)));
  broker.close();
  return { orders, trades, histories };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('PaperBroker: letting go of the quotes while no order works', () => {
  it('gives the same orders, fills and histories as following on, and decodes fewer quotes', async () => {
    // Checked to fail: with the book refreshed on following again from the same quote
    // (`holds` always false), 'eat' bought 100 @ 801.02 from a book the fill had eaten.
    const decodes = vi.spyOn(RecordReader.prototype, 'quote');
    const following = await run(false);
    const full = decodes.mock.calls.length;
    decodes.mockClear();
    const releasing = await run(true);
    expect(releasing).toEqual(following);
    expect(decodes.mock.calls.length).toBeLessThan(full / 2);

    // The scenario as meant: the rest of the book after a fill, the newest book after
    // quotes came while idle, an expiry at the close and an order after the open.
    const fills = following.trades
      .map((t) => [t.remarks, t.fillTime.slice(11), t.fillQuantity, t.fillPrice])
      .reverse();
    expect(fills).toEqual([
      ['rest', '10:00:10', '100', '801.02'],
      ['rest', '10:00:10', '50', '801.07'],
      ['eat', '10:00:11', '50', '801.07'],
      ['eat', '10:00:11', '50', '801.12'],
      ['later', '10:00:31', '100', '800.96'],
      ['later', '10:00:31', '20', '800.91'],
      ['reopened', '10:03:20', '30', '801.40'],
    ]);
    const high = following.orders.find((o) => o.tags === 'high');
    expect([high?.orderStatus, high?.rejectReason, high?.timeStamp]).toEqual([
      'CANCELED',
      'Expired at market close',
      '10:02:00 20-11-2026',
    ]);
  });

  it('keeps the eaten book when it follows again inside the publish that let it go', async () => {
    // Checked to fail (review s9b): a strategy following the full quotes after the venue
    // places from the very quote the venue's last order filled on; the venue, let go and
    // followed again within that publish, was sent the same quote by the running loop
    // and rebuilt the whole book ('eat' bought 100 @ 801.02).
    const inLoop = async (releaseIdleFeeds: boolean) => {
      const { clock, market, broker } = venue(releaseIdleFeeds);
      const placed: Promise<unknown>[] = [];
      const place = (intent: PlaceIntent) =>
        placed.push(broker.placeOrder('regular', toPlaceRequest(intent, intent.id, false)));
      clock.scheduler.schedule(() => place(order('rest', 'B', 150, 80_150)), 2_500);
      clock.scheduler.schedule(() => {
        market.quote$(3045, 'full').subscribe((q) => {
          if (q.receivedAt === T0 + 10_000) place(order('eat', 'B', 100));
        });
      }, 3_000);
      await market.play(T0 + 60_000);
      await Promise.all(placed);
      const trades = await broker.tradeBook();
      broker.close();
      return trades.map((t) => [t.remarks, t.fillQuantity, t.fillPrice]).reverse();
    };
    const following = await inLoop(false);
    expect(await inLoop(true)).toEqual(following);
    expect(following.filter(([remarks]) => remarks === 'eat')).toEqual([
      ['eat', '50', '801.07'],
      ['eat', '50', '801.12'],
    ]);
  });

  it('keeps the book a fill ate into when the quotes that came since did not change', async () => {
    // Checked to fail (review s9): told apart by the quote object, the venue took the
    // unchanged 10:00:15 quote as new, and 'eat' bought 100 @ 801.02 from a whole book.
    const script: [number, PlaceIntent][] = [
      [2_500, order('rest', 'B', 150, 80_150)],
      [16_000, order('eat', 'B', 100)], // an unchanged quote came at 10:00:15
    ];
    const following = await run(false, true, script);
    expect(await run(true, true, script)).toEqual(following);
    const eat = following.trades.filter((t) => t.remarks === 'eat');
    expect(eat.map((t) => [t.fillQuantity, t.fillPrice]).reverse()).toEqual([
      ['50', '801.07'],
      ['50', '801.12'],
    ]);
  });
});
