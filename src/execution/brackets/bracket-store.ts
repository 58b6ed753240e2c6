import type { Journal } from '../journal.ts';
import type { BracketFills, BracketRecord } from './bracket-record.ts';
import { type BracketPart, legOf } from './leg-ids.ts';

/** The journal meta key the live brackets are kept under. */
const META_KEY = 'brackets';

/** A strategy's bracket key: strategy id and bracket id. */
export const bracketKey = (strategyId: string, id: string): string => `${strategyId}\u0000${id}`;

/** No fills yet. */
export const noFills = (): BracketFills => ({
  entryQuantity: 0,
  entryValue: 0,
  exits: { sl: 0, tp: 0 },
  market: 0,
  seen: new Set(),
});

/**
 * Counts one fill of a bracket's part, once per fill id. `back` marks a fill of the
 * market exit on the entry's side (a buy-back past flat).
 */
export function addFill(
  fills: BracketFills,
  part: BracketPart['part'],
  fillId: string,
  quantity: number,
  price: number,
  back = false,
): void {
  if (fills.seen.has(fillId)) return;
  fills.seen.add(fillId);
  if (part === 'entry') {
    fills.entryQuantity += quantity;
    fills.entryValue += quantity * price;
  } else if (part === 'exit') fills.market += back ? -quantity : quantity;
  else fills.exits[part] += quantity;
}

/**
 * The live brackets in the journal: one meta value, rewritten on every change (a few
 * brackets, a few hundred bytes), so a restart finds each bracket's intent, its legs'
 * ids, prices and quantities, and its trailing extreme. A finished bracket is dropped.
 */
export class BracketStore {
  constructor(private readonly journal: Journal) {}

  /** The brackets a previous run left live. */
  load(): BracketRecord[] {
    const text = this.journal.getMeta(META_KEY);
    return text === undefined ? [] : (JSON.parse(text) as BracketRecord[]);
  }

  /** Writes the live brackets (all of them, in one value). */
  save(records: Iterable<BracketRecord>): void {
    this.journal.setMeta(META_KEY, JSON.stringify([...records]));
  }

  /**
   * Each bracket's fills as the journal holds them (its orders by intent id, their fills
   * by tag): the source of truth after a restart, whatever the meta value missed.
   */
  fillsOf(records: readonly BracketRecord[]): Map<string, BracketFills> {
    const out = new Map<string, BracketFills>();
    if (records.length === 0) return out;
    for (const r of records) out.set(bracketKey(r.strategyId, r.intent.id), noFills());
    const { orders, fills } = this.journal.load();
    /** Tag → the bracket's fills and which part of it (entry or a leg). */
    const parts = new Map<
      string,
      { fills: BracketFills; part: BracketPart['part']; back: boolean }
    >();
    const sides = new Map(
      records.map((r) => [bracketKey(r.strategyId, r.intent.id), r.intent.side]),
    );
    for (const o of orders) {
      const { bracket, part } = legOf(o.intentId);
      const key = bracketKey(o.strategyId, bracket);
      const target = out.get(key);
      if (target === undefined) continue;
      const back = part === 'exit' && o.intent.side === sides.get(key);
      for (const tag of [o.tag, ...(o.previousTags ?? [])])
        parts.set(tag, { fills: target, part, back });
    }
    for (const f of fills) {
      const at = parts.get(f.tag);
      if (at !== undefined) addFill(at.fills, at.part, f.fillId, f.quantity, f.price, at.back);
    }
    return out;
  }
}
