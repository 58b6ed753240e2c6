import type { z } from 'zod';

/**
 * The compact success envelopes around a non-empty array, as `JSON.stringify` writes
 * them (the simulator: data first; the spec's examples: status first). Pinning the
 * whole envelope is what puts the array at `data`, one level down, so that the text
 * between the brackets is all the reader has to vouch for.
 */
const ENVELOPES = [
  { prefix: '{"data":[', suffix: '],"status":"success"}' },
  { prefix: '{"status":"success","data":[', suffix: ']}' },
] as const;

/** Most records skipped when looking for where the last read lines up again. */
const MAX_RESYNC = 64;

/**
 * Reads a whole-day book (`GET /user/orders`, `GET /user/trades`) record by record and
 * remembers each record by its exact JSON text, so that a record unchanged since the
 * last read is neither parsed nor validated again, nor allocated anew: the same frozen
 * object comes back. Recognising it is a memory compare against the record last read at
 * that place (no parsing, no hashing). The cost of a read then follows the records that changed, not the
 * day's order count.
 *
 * It answers only when it can vouch for the text: a compact success envelope whose
 * array splits into pieces that each are a record read before (the same text) or a
 * valid new record (cut at the next `},{`). Sound whatever the split: pieces that are each a complete JSON value, joined by `,` inside `[` `]`, parse
 * as exactly that array. Anything else (whitespace, an empty book, a `},{` inside a
 * string, an invalid record) gives `undefined`, and the caller reads the body the
 * ordinary way, which also names an invalid field exactly (`data[3].price`).
 *
 * @example
 * ```ts
 * const orders = new RecordCache(orderBookRecordSchema);
 * const records = orders.read(text) ?? parseWholeBody(text);
 * ```
 */
export class RecordCache<R extends object> {
  /** The records of the latest read, in order, with their JSON text. */
  private known: Known<R>[] = [];

  constructor(private readonly schema: z.ZodType<R>) {}

  /** The records of `text`, or `undefined` when the text must be read the ordinary way. */
  read(text: string): R[] | undefined {
    const envelope = ENVELOPES.find((e) => text.startsWith(e.prefix) && text.endsWith(e.suffix));
    if (envelope === undefined) return undefined;
    const end = text.length - envelope.suffix.length;
    let from = envelope.prefix.length;
    // An empty book is cheap the ordinary way.
    if (from >= end) return undefined;
    const previous = this.known;
    const next: Known<R>[] = [];
    const records: R[] = [];
    // Where the last read's records line up with this one's: a book grows at one end and
    // changes in place, so after `misses` new or changed records in a row the next record
    // is most likely one of `previous[at .. at + misses + 1]` (`at`: after the last match).
    // Two legs placed together change side by side, so the window widens with the run of
    // misses (up to MAX_RESYNC) rather than losing the alignment for the rest of the book.
    let at = 0;
    let misses = 0;
    for (;;) {
      let entry: Known<R> | undefined;
      const last = at + Math.min(misses, MAX_RESYNC) + 1;
      for (let k = at; k <= last; k++) {
        const candidate = previous[k];
        if (candidate !== undefined && sameAt(text, from, end, candidate.text)) {
          entry = candidate;
          at = k + 1;
          misses = 0;
          break;
        }
      }
      if (entry === undefined) {
        misses++;
        const sep = text.indexOf('},{', from);
        const stop = sep === -1 || sep >= end ? end : sep + 1;
        entry = this.validate(text.slice(from, stop));
        if (entry === undefined) return undefined;
      }
      next.push(entry);
      records.push(entry.record);
      const stop = from + entry.text.length;
      if (stop === end) break;
      from = stop + 1;
    }
    this.known = next;
    return records;
  }

  /** A new piece: parsed and validated once, frozen because later reads share it. */
  private validate(piece: string): Known<R> | undefined {
    let value: unknown;
    try {
      value = JSON.parse(piece);
    } catch {
      return undefined;
    }
    const parsed = this.schema.safeParse(value);
    if (!parsed.success) return undefined;
    // A copy of its own: a slice would keep the whole body it came from alive.
    return { text: ` ${piece}`.slice(1), record: Object.freeze(parsed.data) };
  }
}

/** A record as last read, and its exact JSON text. */
interface Known<R> {
  text: string;
  record: R;
}

/**
 * Whether `text` holds `piece` at `from`, as a whole element of the array ending at
 * `end`: followed by the separating comma or by the end itself. A memory compare, with
 * no hashing.
 */
function sameAt(text: string, from: number, end: number, piece: string): boolean {
  const stop = from + piece.length;
  if (stop > end || (stop < end && text.charCodeAt(stop) !== COMMA)) return false;
  // A slice and `===` compare memory at once; `startsWith` goes char by char.
  return text.slice(from, stop) === piece;
}

const COMMA = 44;
