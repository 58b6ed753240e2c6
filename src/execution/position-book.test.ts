import { describe, expect, it } from 'vitest';
import { type IntradayClosed, type LateIntradayFill, PositionBook } from './position-book.ts';

describe('PositionBook', () => {
  it('books a long round trip with average price and realised PnL', () => {
    const book = new PositionBook();
    book.applyFill('a', 3045, 'SBIN-EQ', 'B', 10, 80000);
    book.applyFill('a', 3045, 'SBIN-EQ', 'B', 10, 80100);
    expect(book.positions('a')[0]).toMatchObject({ netQuantity: 20, averagePrice: 80050 });
    book.mark(3045, 80200);
    expect(book.totals('a')).toEqual({ realised: 0, unrealised: 20 * 150 });
    book.applyFill('a', 3045, 'SBIN-EQ', 'S', 5, 80300);
    expect(book.totals('a').realised).toBe(5 * 250);
    book.applyFill('a', 3045, 'SBIN-EQ', 'S', 15, 79950);
    const [p] = book.positions('a');
    expect(p).toMatchObject({ netQuantity: 0, averagePrice: 0, unrealised: 0 });
    expect(p?.realised).toBe(5 * 250 + 15 * -100);
  });

  it('books shorts and flips through zero', () => {
    const book = new PositionBook();
    book.applyFill('b', 26000, 'NIFTY', 'S', 75, 10000);
    book.mark(26000, 9000);
    expect(book.totals('b').unrealised).toBe(75 * 1000);
    book.applyFill('b', 26000, 'NIFTY', 'B', 150, 9500);
    const [p] = book.positions('b');
    expect(p?.realised).toBe(75 * 500);
    expect(p).toMatchObject({ netQuantity: 75, averagePrice: 9500 });
  });

  it('keeps strategies apart and totals them', () => {
    const book = new PositionBook();
    book.applyFill('a', 1, 'X', 'B', 1, 100);
    book.applyFill('b', 1, 'X', 'S', 1, 100);
    book.mark(1, 110);
    expect(book.totals('a').unrealised).toBe(10);
    expect(book.totals('b').unrealised).toBe(-10);
    expect(book.totals()).toEqual({ realised: 0, unrealised: 0 });
  });
});

describe('PositionBook: intraday positions end with their IST day', () => {
  const at = (iso: string) => Date.parse(iso);
  const MON = at('2026-11-23T10:00:00+05:30');
  const TUE = at('2026-11-24T09:20:00+05:30');
  /** A book whose clock reads `now.t`, and the closes it told. */
  function setup(start: number) {
    const now = { t: start };
    const closed: IntradayClosed[] = [];
    const late: LateIntradayFill[] = [];
    const book = new PositionBook({
      now: () => now.t,
      onIntradayClosed: (c) => closed.push(c),
      onLateIntradayFill: (f) => late.push(f),
    });
    return { now, closed, late, book };
  }

  // Checked to fail: with the read's roll-over taken out (rollOver returning at once) the
  // first, third, fourth and fifth fail; without the net bound (closing all the intraday
  // quantity) the third does: strategy a is left short 4.
  it('closes an intraday position left open when its day ended, at its last price', () => {
    const { now, closed, book } = setup(MON);
    book.applyFill('a', 3045, 'SBIN-EQ', 'B', 10, 80_000, 'I', MON);
    book.mark(3045, 80_500);
    expect(book.position('a', 3045)?.netQuantity).toBe(10);
    // Later the same day (after the close, in the evening) it is still the bot's.
    now.t = at('2026-11-23T23:59:00+05:30');
    expect(book.position('a', 3045)?.netQuantity).toBe(10);
    expect(closed).toEqual([]);
    // The next day: closed at ₹805 (the last price), told once.
    now.t = TUE;
    expect(book.position('a', 3045)).toMatchObject({ netQuantity: 0, realised: 10 * 500 });
    expect(book.totals()).toEqual({ realised: 5_000, unrealised: 0 });
    expect(closed).toEqual([
      {
        strategyId: 'a',
        token: 3045,
        symbol: 'SBIN-EQ',
        quantity: 10,
        price: 80_500,
        day: '2026-11-23',
        replayed: false,
      },
    ]);
    book.positions();
    expect(closed).toHaveLength(1);
  });

  it('keeps delivery and F&O normal positions, and books without a clock close nothing', () => {
    const { now, closed, book } = setup(MON);
    book.applyFill('a', 3045, 'SBIN-EQ', 'B', 10, 80_000, 'C', MON);
    book.applyFill('a', 43650, 'NIFTY-FUT', 'S', 75, 2_400_000, 'M', MON);
    const plain = new PositionBook();
    plain.applyFill('a', 3045, 'SBIN-EQ', 'B', 10, 80_000, 'I', MON);
    now.t = TUE;
    expect(book.positions().map((p) => p.netQuantity)).toEqual([10, -75]);
    expect(plain.position('a', 3045)?.netQuantity).toBe(10);
    expect(closed).toEqual([]);
  });

  it('never opens or flips a position by a close: at most the net, nothing against it', () => {
    const { now, closed, book } = setup(MON);
    // 10 bought intraday, 4 sold as a carried product: 6 of the intraday ones are left.
    book.applyFill('a', 3045, 'SBIN-EQ', 'B', 10, 80_000, 'I', MON);
    book.applyFill('a', 3045, 'SBIN-EQ', 'S', 4, 80_000, 'C', MON);
    // 5 sold short intraday against 5 held: flat in all.
    book.applyFill('b', 3045, 'SBIN-EQ', 'B', 5, 80_000, 'C', MON);
    book.applyFill('b', 3045, 'SBIN-EQ', 'S', 5, 80_000, 'I', MON);
    now.t = TUE;
    expect(book.position('a', 3045)?.netQuantity).toBe(0);
    expect(book.position('b', 3045)?.netQuantity).toBe(0);
    expect(closed.map((c) => [c.strategyId, c.quantity])).toEqual([['a', 6]]);
  });

  it("replays a journal's days in order: a day's leftover closed before the next day's fills", () => {
    const { closed, book } = setup(at('2026-11-25T09:30:00+05:30'));
    book.replay(() => {
      // Monday: a round trip, then 5 bought and never sold.
      book.applyFill('a', 3045, 'SBIN-EQ', 'B', 10, 80_000, 'I', MON);
      book.applyFill('a', 3045, 'SBIN-EQ', 'S', 10, 80_200, 'I', MON + 60_000);
      book.applyFill('a', 3045, 'SBIN-EQ', 'B', 5, 80_100, 'I', MON + 120_000);
      // Tuesday: 3 bought (the bot ran, so Monday's 5 were closed then).
      book.applyFill('a', 3045, 'SBIN-EQ', 'B', 3, 80_300, 'I', TUE);
    });
    expect(closed.map((c) => [c.day, c.quantity, c.replayed])).toEqual([['2026-11-23', 5, true]]);
    // Wednesday's first read closes Tuesday's 3 at their price: told as new.
    expect(book.position('a', 3045)).toMatchObject({ netQuantity: 0, realised: 10 * 200 });
    expect(closed.map((c) => [c.day, c.quantity, c.replayed])).toEqual([
      ['2026-11-23', 5, true],
      ['2026-11-24', 3, false],
    ]);
  });

  it("closes an earlier day's leftover booked after the day's first read", () => {
    // A journal replayed into a book that was already read today (the check is per day).
    const { closed, book } = setup(TUE);
    expect(book.positions()).toEqual([]);
    book.replay(() => book.applyFill('a', 3045, 'SBIN-EQ', 'B', 10, 80_000, 'I', MON));
    expect(book.position('a', 3045)?.netQuantity).toBe(0);
    expect(closed).toHaveLength(1);
  });

  // Checked to fail with the late-fill test taken out of applyFill (booked as today's):
  // the first leaves strategy a short 10, the second short 7.
  it("does not book a late fill of a day whose position it closed: the broker's square-off took it", () => {
    const { now, closed, late, book } = setup(MON);
    book.applyFill('a', 3045, 'SBIN-EQ', 'B', 10, 80_000, 'I', MON);
    now.t = TUE;
    expect(book.position('a', 3045)?.netQuantity).toBe(0);
    // Monday's exit order (placed Monday) filled at 15:29; the bot learns of it now.
    book.applyFill('a', 3045, 'SBIN-EQ', 'S', 10, 80_300, 'I', MON + 3_600_000);
    expect(book.position('a', 3045)).toMatchObject({ netQuantity: 0, realised: 0 });
    expect(closed).toHaveLength(1);
    expect(late).toEqual([
      {
        strategyId: 'a',
        token: 3045,
        symbol: 'SBIN-EQ',
        quantity: -10,
        price: 80_300,
        day: '2026-11-23',
        replayed: false,
      },
    ]);
    // Tuesday's own fills are booked.
    book.applyFill('a', 3045, 'SBIN-EQ', 'B', 2, 80_400, 'I', TUE);
    expect(book.position('a', 3045)?.netQuantity).toBe(2);
  });

  it('replays late fills as the running bot booked them', () => {
    const { late, book } = setup(at('2026-11-25T09:30:00+05:30'));
    book.replay(() => {
      book.applyFill('a', 3045, 'SBIN-EQ', 'B', 10, 80_000, 'I', MON);
      // Tuesday's buy came first: Monday's 10 were closed then.
      book.applyFill('a', 3045, 'SBIN-EQ', 'B', 3, 80_300, 'I', TUE);
      book.applyFill('a', 3045, 'SBIN-EQ', 'S', 10, 80_200, 'I', MON);
      // Strategy b learnt of its Monday exit before any Tuesday fill: a Monday round trip.
      book.applyFill('b', 3045, 'SBIN-EQ', 'B', 10, 80_000, 'I', MON);
      book.applyFill('b', 3045, 'SBIN-EQ', 'S', 10, 80_200, 'I', MON);
    });
    expect(late.map((f) => [f.strategyId, f.quantity, f.replayed])).toEqual([['a', -10, true]]);
    // On Wednesday, a's Tuesday 3 are closed too; b's round trip is booked exactly.
    expect(book.position('a', 3045)?.netQuantity).toBe(0);
    expect(book.position('b', 3045)).toMatchObject({ netQuantity: 0, realised: 10 * 200 });
  });
});
