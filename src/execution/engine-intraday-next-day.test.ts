import { describe, expect, it } from 'vitest';
import type { OrderBookRecord, TradeBookRecord } from '../api/schemas/order-records.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { memoryLogger } from '../market-data/testing/fake-quote-source.ts';
import { ExecutionEngine } from './execution-engine.ts';
import { MemoryJournal } from './journal.ts';
import { engineOn, OPEN_SESSION, placeIntent, scriptedBroker } from './testing/engine-fixtures.ts';

/** An order of the broker's book: `filled` of its one share. */
function bookRecord(id: string, tag: string, filled: 0 | 1): OrderBookRecord {
  return {
    id,
    tags: tag,
    orderStatus: filled === 1 ? 'COMPLETE' : 'OPEN',
    quantity: '1',
    price: '0',
    fillShares: String(filled),
    rejectReason: '',
    snoOrderDirection: '',
    snoOrderID: '',
  } as OrderBookRecord;
}

/** The trade of order `id`'s one share at `price` rupees. */
function trade(id: string, price: string): TradeBookRecord {
  return {
    id,
    fillID: `f-${id}`,
    fillQuantity: '1',
    fillShares: '1',
    fillPrice: price,
    averagePrice: price,
  } as TradeBookRecord;
}

describe('ExecutionEngine: a bot running from one day into the next', () => {
  // Checked to fail three ways: with the engine's PositionBook built without its clock,
  // the position is still +1 on Tuesday; with the fill booked by when the bot learnt of it
  // (event.at, not fillDayTime), the exit's late fill makes it -1 on Tuesday, which the
  // square-off would buy back; with the late-fill test taken out of applyFill, the late
  // fill is booked into Monday's closed position and closed again (a second warning).
  it("closes Monday's intraday leftover on Tuesday, books no late fill, and squares off nothing", async () => {
    const { broker, placed } = scriptedBroker();
    const clock = new VirtualClock(Date.parse('2026-11-23T10:00:00+05:30'));
    const { logger, lines } = memoryLogger();
    const engine = new ExecutionEngine({ broker, clock, logger, sessions: OPEN_SESSION });
    // Monday 10:00: a buy, filled at ₹800.
    let book: OrderBookRecord[] = [];
    let trades: TradeBookRecord[] = [];
    broker.orderBook = async () => book;
    broker.tradeBook = async () => trades;
    await engine.submit(placeIntent('entry'));
    book = [bookRecord('N1', placed[0]?.tag ?? '', 1)];
    trades = [trade('N1', '800.00')];
    await engine.poll();
    expect(engine.positions.position('s1', 3045)?.netQuantity).toBe(1);
    // Monday 15:25: an exit that works past the close (the bot learns nothing more Monday).
    clock.advanceTo(Date.parse('2026-11-23T15:25:00+05:30'));
    await engine.submit(placeIntent('exit', { side: 'S' }));
    book = [...book, bookRecord('N2', placed[1]?.tag ?? '', 0)];
    await engine.poll();
    expect(engine.positions.position('s1', 3045)?.netQuantity).toBe(1);

    // Tuesday 09:20: the first read closes Monday's share (the broker squared it off).
    clock.advanceTo(Date.parse('2026-11-24T09:20:00+05:30'));
    expect(engine.positions.position('s1', 3045)?.netQuantity).toBe(0);
    // The books now show Monday's exit filled at 15:29: a late fill, not booked again.
    book = [book[0] as OrderBookRecord, bookRecord('N2', placed[1]?.tag ?? '', 1)];
    trades = [...trades, trade('N2', '801.00')];
    await engine.poll();
    expect(engine.orders().map((o) => o.status)).toEqual(['complete', 'complete']);
    expect(engine.positions.position('s1', 3045)?.netQuantity).toBe(0);
    // The square-off has nothing to close.
    await engine.submit({ kind: 'squareOff', id: 'eod', strategyId: 's1', reason: 'test' });
    expect(placed).toHaveLength(2);

    const warnings = lines.filter((l) => l.level === 40).map((l) => String(l.msg));
    expect(warnings).toEqual([
      expect.stringMatching(/^intraday position \+1 SBIN-EQ of s1 from 2026-11-23 was still open/),
      expect.stringMatching(
        /^a fill of -1 SBIN-EQ of s1 for an intraday order of 2026-11-23 was learnt only/,
      ),
    ]);
    await engine.stop();
  });

  // Review-s10 3: the close was booked at the last price, a mark in the running bot and
  // the last fill in a replay, so a restart moved the day's PnL against the kill switch's
  // baseline and tripped it (checked to fail so: killed, realised 0 against 2,000,000).
  it('closes at cost, so a bot restarted the next day agrees with the one that ran through midnight', async () => {
    const { broker, placed } = scriptedBroker();
    let book: OrderBookRecord[] = [];
    let trades: TradeBookRecord[] = [];
    broker.orderBook = async () => book;
    broker.tradeBook = async () => trades;
    const clock = new VirtualClock(Date.parse('2026-11-23T10:00:00+05:30'));
    const journal = new MemoryJournal();
    let ltp = 80_000;
    const quote = () => ({ ltp, lowerLimit: 1, upperLimit: 10_000_000 });
    const options = { quote, risk: { dailyMaxLoss: 1_500_000 } };
    const running = engineOn(broker, clock, journal, options);
    await running.submit(placeIntent('entry', { quantity: 1000 }));
    book = [{ ...bookRecord('N1', placed[0]?.tag ?? '', 1), quantity: '1000', fillShares: '1000' }];
    trades = [{ ...trade('N1', '800.00'), fillQuantity: '1000', fillShares: '1000' }];
    await running.poll();
    // ₹820 all afternoon; the bot's own square-off did not happen (say it was refused).
    ltp = 82_000;
    running.markAndCheck();
    expect(running.positions.totals()).toEqual({ realised: 0, unrealised: 2_000_000 });
    // The risk mark just after midnight: the day's baseline is taken after the close.
    clock.advanceTo(Date.parse('2026-11-24T00:00:01+05:30'));
    running.markAndCheck();
    const tuesday = running.positions.totals();
    expect(tuesday).toEqual({ realised: 0, unrealised: 0 });
    await running.stop();

    // Restarted at 09:00: the journal replayed, no quotes yet; the books read empty.
    clock.advanceTo(Date.parse('2026-11-24T09:00:00+05:30'));
    book = [];
    trades = [];
    const restarted = engineOn(broker, clock, journal, options);
    await restarted.recover();
    restarted.markAndCheck();
    expect(restarted.positions.totals()).toEqual(tuesday);
    expect(restarted.killed).toBe(false);
    await restarted.stop();
  });

  // Review s10b E: checked to fail without the journal's note of the days told (the
  // warning came again at every restart).
  it('warns of a leftover once, not again at every later restart', async () => {
    const { broker, placed } = scriptedBroker();
    broker.orderBook = async () =>
      placed.length === 0 ? [] : [bookRecord('N1', placed[0]?.tag ?? '', 1)];
    broker.tradeBook = async () => (placed.length === 0 ? [] : [trade('N1', '800.00')]);
    const clock = new VirtualClock(Date.parse('2026-11-23T10:00:00+05:30'));
    const journal = new MemoryJournal();
    const warnings = (lines: { level: number; msg: unknown }[]) =>
      lines.filter((l) => l.level === 40).map((l) => String(l.msg));
    const monday = memoryLogger();
    const first = engineOn(broker, clock, journal, { logger: monday.logger });
    await first.submit(placeIntent('entry'));
    await first.poll();
    clock.advanceTo(Date.parse('2026-11-24T09:20:00+05:30'));
    first.markAndCheck();
    expect(warnings(monday.lines)).toEqual([expect.stringMatching(/was still open after its day/)]);
    await first.stop();
    // Restarted on Wednesday: the same close is found again in the replay, told at debug.
    clock.advanceTo(Date.parse('2026-11-25T09:20:00+05:30'));
    broker.orderBook = async () => [];
    broker.tradeBook = async () => [];
    const wednesday = memoryLogger();
    const second = engineOn(broker, clock, journal, { logger: wednesday.logger });
    await second.recover();
    second.markAndCheck();
    expect(second.positions.position('s1', 3045)?.netQuantity).toBe(0);
    expect(warnings(wednesday.lines)).toEqual([]);
    await second.stop();
  });
});
