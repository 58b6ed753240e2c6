import type { TradeDetail } from './trade-details.ts';

/** Markers on a chart up to which every one is labelled; beyond, only exits that say why. */
const MARKER_LABELS = 40;
/** Beyond this many (a year of trades), no labels and smaller arrows: the price stays readable. */
const MARKER_CROWD = 200;

/**
 * Colours apart from the candles' green and red, one per kind: a buy that opens (a
 * long's entry), a sell that opens (a short's entry), the sell that closes a long and
 * the buy that closes a short.
 */
export const MARKER_COLORS = {
  longEntry: '#1565c0',
  shortEntry: '#8e24aa',
  longExit: '#ef6c00',
  shortExit: '#212121',
} as const;

/** A lightweight-charts series marker, as the page's script hands it over. */
export interface TradeMarker {
  time: number;
  position: 'atPriceBottom' | 'atPriceTop';
  price: number;
  shape: 'arrowUp' | 'arrowDown';
  color: string;
  size: number;
  text: string;
}

/**
 * One marker per trade entry (at its opening time and average entry price) and per
 * exit (at its closing time and exit price; a trade still open at the end has none),
 * in time order. Buys point up, sells down; entries and exits differ in colour
 * ({@link MARKER_COLORS}). `snap` puts a time on the chart's bar holding it.
 *
 * @example
 * ```ts
 * tradeMarkers(trades, snap)[1].text; // 'Exit 10 · stop'
 * ```
 */
export function tradeMarkers(
  trades: readonly TradeDetail[],
  snap: (ms: number) => number,
): TradeMarker[] {
  const out: (TradeMarker & { reason: string })[] = [];
  for (const t of trades) {
    const long = t.direction === 'long';
    out.push({
      time: snap(t.openedAt),
      position: long ? 'atPriceBottom' : 'atPriceTop',
      price: t.entryPrice / 100,
      shape: long ? 'arrowUp' : 'arrowDown',
      color: long ? MARKER_COLORS.longEntry : MARKER_COLORS.shortEntry,
      size: 2,
      text: `${long ? 'Long' : 'Short'} ${t.quantity}`,
      reason: '',
    });
    if (t.closedAt === undefined) continue;
    // A strategy's own exit is the usual case: only other reasons are worth the words.
    const reason = t.exitReason === 'strategy exit' ? '' : t.exitReason;
    out.push({
      time: snap(t.closedAt),
      position: long ? 'atPriceTop' : 'atPriceBottom',
      price: t.exitPrice / 100,
      shape: long ? 'arrowDown' : 'arrowUp',
      color: long ? MARKER_COLORS.longExit : MARKER_COLORS.shortExit,
      size: 2,
      text: `Exit ${t.quantity}${reason === '' ? '' : ` · ${reason}`}`,
      reason,
    });
  }
  // Many markers: labels would cover the candles (the trades table says the rest), but
  // an exit's reason (a stop, a square-off) stays until the chart is crowded.
  const many = out.length > MARKER_LABELS;
  const crowded = out.length > MARKER_CROWD;
  return out
    .sort((a, b) => a.time - b.time)
    .map(({ reason, ...m }) =>
      crowded ? { ...m, size: 1, text: '' } : many ? { ...m, text: reason } : m,
    );
}
