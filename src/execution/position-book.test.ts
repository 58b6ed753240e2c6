import { describe, expect, it } from 'vitest';
import type { FillDay, IntradayClosed, LateIntradayFill } from './intraday-fill.ts';
import { PositionBook } from './position-book.ts';

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
  const WED = at('2026-11-25T09:30:00+05:30');
  /** An intraday fill of an order placed at `placed`, learnt at `learnt` (default: then). */
  const I = (placed: number, learnt = placed): FillDay => ({
    product: 'I',
    at: placed,
    learntAt: learnt,
  });
  const carried = (product: 'C' | 'M', t: number): FillDay => ({ product, at: t, learntAt: t });
  /** A book whose clock reads `now.t`, and what it told. */
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

  // Checked to fail with the read's roll-over taken out (rollOver returning at once): all
  // but the second and the first block's tests fail.
  it('closes an intraday position left open when its day ended, at its cost', () => {
    const { now, closed, book } = setup(MON);
    book.applyFill('a', 3045, 'SBIN-EQ', 'B', 10, 80_000, I(MON));
    book.mark(3045, 80_500);
    expect(book.position('a', 3045)?.netQuantity).toBe(10);
    // Later the same day (after the close, in the evening) it is still the bot's.
    now.t = at('2026-11-23T23:59:00+05:30');
    expect(book.position('a', 3045)?.netQuantity).toBe(10);
    expect(closed).toEqual([]);
    // The next day: closed at its cost, no PnL booked (the broker's price is unknown).
    now.t = TUE;
    expect(book.position('a', 3045)).toMatchObject({ netQuantity: 0, realised: 0 });
    expect(book.totals()).toEqual({ realised: 0, unrealised: 0 });
    expect(closed).toEqual([
      {
        strategyId: 'a',
        token: 3045,
        symbol: 'SBIN-EQ',
        quantity: 10,
        price: 80_000,
        day: '2026-11-23',
        replayed: false,
      },
    ]);
    book.positions();
    expect(closed).toHaveLength(1);
  });

  it('keeps delivery and F&O normal positions, and a book without a clock keeps everything', () => {
    const { now, closed, book } = setup(MON);
    book.applyFill('a', 3045, 'SBIN-EQ', 'B', 10, 80_000, carried('C', MON));
    book.applyFill('a', 43650, 'NIFTY-FUT', 'S', 75, 2_400_000, carried('M', MON));
    const plain = new PositionBook();
    plain.applyFill('a', 3045, 'SBIN-EQ', 'B', 10, 80_000, I(MON));
    now.t = TUE;
    expect(book.positions().map((p) => p.netQuantity)).toEqual([10, -75]);
    expect(plain.position('a', 3045)?.netQuantity).toBe(10);
    expect(closed).toEqual([]);
  });

  // Checked to fail with the close bounded by the net (as first written): F&O stays at -6.
  it('keeps the intraday and carried parts apart, as the broker does, even against each other', () => {
    const { now, closed, book } = setup(MON);
    // F&O: 10 short carried (NRML), 4 bought intraday: the broker sells the 4 at its cut-off.
    book.applyFill('f', 43650, 'NIFTY-FUT', 'S', 10, 2_400_000, carried('M', MON - 86_400_000));
    book.applyFill('f', 43650, 'NIFTY-FUT', 'B', 4, 2_390_000, I(MON));
    expect(
      [undefined, 'I', 'M'].map((p) => book.quantityOf('f', 43650, p as 'I' | 'M' | undefined)),
    ).toEqual([-6, 4, -10]);
    // Equity: 5 held, 5 sold intraday against them: the broker buys the 5 back.
    book.applyFill('e', 3045, 'SBIN-EQ', 'B', 5, 80_000, carried('C', MON));
    book.applyFill('e', 3045, 'SBIN-EQ', 'S', 5, 80_100, I(MON));
    expect(book.position('e', 3045)?.netQuantity).toBe(0);
    now.t = TUE;
    expect(book.position('f', 43650)?.netQuantity).toBe(-10);
    expect(book.quantityOf('f', 43650, 'I')).toBe(0);
    expect(book.position('e', 3045)?.netQuantity).toBe(5);
    expect(closed.map((c) => [c.strategyId, c.quantity, c.price])).toEqual([
      ['f', 4, 2_390_000],
      ['e', -5, 80_100],
    ]);
  });

  it("replays a journal's days in order: a day's leftover closed before the next day's fills", () => {
    const { closed, book } = setup(WED);
    book.replay(() => {
      // Monday: a round trip, then 5 bought and never sold.
      book.applyFill('a', 3045, 'SBIN-EQ', 'B', 10, 80_000, I(MON));
      book.applyFill('a', 3045, 'SBIN-EQ', 'S', 10, 80_200, I(MON + 60_000));
      book.applyFill('a', 3045, 'SBIN-EQ', 'B', 5, 80_100, I(MON + 120_000));
      // Tuesday: 3 bought (the bot ran, so Monday's 5 were closed then).
      book.applyFill('a', 3045, 'SBIN-EQ', 'B', 3, 80_300, I(TUE));
    });
    expect(closed.map((c) => [c.day, c.quantity, c.replayed])).toEqual([['2026-11-23', 5, true]]);
    // Wednesday's first read closes Tuesday's 3: told as new.
    expect(book.position('a', 3045)).toMatchObject({ netQuantity: 0, realised: 10 * 200 });
    expect(closed.map((c) => [c.day, c.quantity, c.replayed])).toEqual([
      ['2026-11-23', 5, true],
      ['2026-11-24', 3, false],
    ]);
  });

  // Checked to fail with the late-fill test taken out of applyFill (booked as Monday's, or
  // with the learnt day ignored): the running book is short 10, or the replay disagrees.
  it('does not book a fill learnt a day late, and a replay books what the running bot did', () => {
    const { now, closed, late, book } = setup(MON);
    const fills: Array<[side: 'B' | 'S', qty: number, price: number, day: FillDay]> = [];
    const fill = (...f: (typeof fills)[number]) => {
      fills.push(f);
      book.applyFill('a', 3045, 'SBIN-EQ', f[0], f[1], f[2], f[3]);
    };
    fill('B', 10, 80_000, I(MON));
    book.mark(3045, 82_000);
    now.t = TUE;
    expect(book.position('a', 3045)?.netQuantity).toBe(0);
    // Monday's exit order (placed 15:29) filled; the bot learns of it on Tuesday.
    fill('S', 10, 80_300, I(MON + 5 * 3_600_000, TUE + 60_000));
    expect(book.position('a', 3045)).toMatchObject({ netQuantity: 0, realised: 0 });
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
    fill('B', 2, 80_400, I(TUE + 120_000));
    expect(book.position('a', 3045)?.netQuantity).toBe(2);

    // Restarted on Tuesday: the journal's fills replayed, no marks.
    const again = setup(TUE + 600_000);
    again.book.replay(() => {
      for (const f of fills) again.book.applyFill('a', 3045, 'SBIN-EQ', ...f);
    });
    expect(again.book.position('a', 3045)).toEqual(book.position('a', 3045));
    expect(again.book.totals().realised).toBe(book.totals().realised);
    expect(closed).toHaveLength(1);
    expect(again.late.map((f) => f.replayed)).toEqual([true]);
  });

  it("closes an earlier day's leftover booked after the day's first read", () => {
    // A journal replayed into a book that was already read today (the check is per day).
    const { closed, book } = setup(TUE);
    expect(book.positions()).toEqual([]);
    book.replay(() => book.applyFill('a', 3045, 'SBIN-EQ', 'B', 10, 80_000, I(MON)));
    expect(book.position('a', 3045)?.netQuantity).toBe(0);
    expect(closed).toHaveLength(1);
  });

  it('keeps the intraday part but closes nothing with closeEndedDays false (a backtest)', () => {
    const now = { t: MON };
    const book = new PositionBook({ now: () => now.t, closeEndedDays: false });
    book.applyFill('a', 3045, 'SBIN-EQ', 'B', 10, 80_000, I(MON));
    now.t = TUE;
    // A fill learnt late is booked: the venue's fills are the results.
    book.applyFill('a', 3045, 'SBIN-EQ', 'B', 2, 80_000, I(MON, TUE));
    book.applyFill('a', 3045, 'SBIN-EQ', 'B', 3, 80_000, I(TUE));
    expect(book.position('a', 3045)?.netQuantity).toBe(15);
    // The square-off before the close closes all of it: none was closed by a day's end.
    expect(book.quantityOf('a', 3045, 'I')).toBe(15);
  });

  // Review s10b B: checked to fail with the replay closing a book's leftover only at its
  // next intraday fill (realised 10,000 in the replay against 0).
  it("replays a carried fill after the day's close, as the running bot booked it", () => {
    const { now, book } = setup(MON);
    book.applyFill('a', 3045, 'SBIN-EQ', 'B', 10, 80_000, I(MON));
    now.t = TUE;
    // Tuesday's first event is a delivery sale of 12 (the bot read nothing before it).
    book.applyFill('a', 3045, 'SBIN-EQ', 'S', 12, 81_000, carried('C', TUE));
    const again = setup(WED);
    again.book.replay(() => {
      again.book.applyFill('a', 3045, 'SBIN-EQ', 'B', 10, 80_000, I(MON));
      again.book.applyFill('a', 3045, 'SBIN-EQ', 'S', 12, 81_000, carried('C', TUE));
    });
    expect(book.position('a', 3045)).toMatchObject({ netQuantity: -12, realised: 0 });
    expect(again.book.position('a', 3045)).toEqual(book.position('a', 3045));
  });
});
