import { describe, expect, it } from 'vitest';
import type { TradeDetail } from './trade-details.ts';
import { MARKER_COLORS, tradeMarkers } from './trade-markers.ts';

const trade = (i: number, direction: 'long' | 'short', closed = true): TradeDetail =>
  ({
    direction,
    quantity: 10,
    openedAt: i * 1_000,
    closedAt: closed ? i * 1_000 + 500 : undefined,
    entryPrice: 80_000,
    exitPrice: 80_500,
    exitReason: i % 2 === 0 ? 'stop' : 'strategy exit',
  }) as TradeDetail;
const snap = (ms: number): number => ms / 1_000;

describe('tradeMarkers', () => {
  it('marks each entry and exit in its own colour, labelled, none for an open exit', () => {
    const m = tradeMarkers([trade(0, 'long'), trade(1, 'short'), trade(2, 'long', false)], snap);
    expect(m.map((x) => [x.time, x.shape, x.color, x.price, x.text])).toEqual([
      [0, 'arrowUp', MARKER_COLORS.longEntry, 800, 'Long 10'],
      [0.5, 'arrowDown', MARKER_COLORS.longExit, 805, 'Exit 10 · stop'],
      [1, 'arrowDown', MARKER_COLORS.shortEntry, 800, 'Short 10'],
      [1.5, 'arrowUp', MARKER_COLORS.shortExit, 805, 'Exit 10'],
      [2, 'arrowUp', MARKER_COLORS.longEntry, 800, 'Long 10'],
    ]);
  });

  it('keeps only exit reasons past 40 markers, and no labels on a crowded chart', () => {
    const many = tradeMarkers(
      Array.from({ length: 30 }, (_, i) => trade(i, 'long')),
      snap,
    );
    expect(many.length).toBe(60);
    expect(new Set(many.map((x) => x.text))).toEqual(new Set(['', 'stop']));
    expect(many.filter((x) => x.text === 'stop').length).toBe(15);
    const crowded = tradeMarkers(
      Array.from({ length: 150 }, (_, i) => trade(i, 'long')),
      snap,
    );
    expect(crowded.every((x) => x.text === '' && x.size === 1)).toBe(true);
  });
});
