import { describe, expect, it } from 'vitest';
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
