import type { FullQuote } from '../api/schemas/quote.ts';
import type { SimOrder } from '../sim/engine/sim-order.ts';
import { type BarTouch, barTouch, type PriceSegment } from '../sim/matching/bar-fill.ts';
import { BusMarketView } from './bus-market-view.ts';

/** The latest segment of a token's path and its number (each quote starts a new one). */
interface Step extends PriceSegment {
  readonly seq: number;
  /** The bar the quote belongs to (its `ltt`, see `candle-replay/bar-quote.ts`). */
  readonly bar: number;
}

/**
 * The paper venue's market over a candle replay: a {@link BusMarketView} (the quote's
 * one-level book, market orders filling there plus the slippage) that also keeps the
 * path between the last two quotes of each token, so that an order resting through it
 * fills by the bar fill model ({@link barTouch}): at the touched price, not at the next
 * synthesised point.
 *
 * A segment counts for an order only once: an order placed or modified after the quote
 * that ended it is checked against the price now (the book), as in a tick replay; an
 * order that rested through it, at its next step. A synthesised quote's `ltt` is its
 * bar's start, so a change of `ltt` marks the jump from one bar's close to the next
 * bar's open (a gap: nothing traded in between).
 *
 * @example
 * ```ts
 * const broker = new PaperBroker({ ...options, fillModel: 'bar' }); // uses a BarMarketView
 * ```
 */
export class BarMarketView extends BusMarketView {
  private readonly steps = new Map<number, Step>();
  /** The segment number each resting order was last checked at. */
  private readonly seen = new WeakMap<SimOrder, number>();
  private seq = 0;

  override update(quote: FullQuote): void {
    const before = this.steps.get(quote.token);
    this.steps.set(quote.token, {
      from: before?.to ?? quote.ltp,
      to: quote.ltp,
      gap: before === undefined || before.bar !== quote.ltt,
      seq: ++this.seq,
      bar: quote.ltt,
    });
    super.update(quote);
  }

  override release(token: number): void {
    this.steps.delete(token);
    super.release(token);
  }

  touched(order: SimOrder): BarTouch | undefined {
    const step = this.steps.get(order.params.token);
    if (step === undefined) return undefined;
    const seen = this.seen.get(order);
    this.seen.set(order, step.seq);
    // New since the last quote (or checked since): the price now, through the book.
    if (seen === undefined || seen >= step.seq) return undefined;
    return barTouch(order.params, order.triggered, step);
  }
}
