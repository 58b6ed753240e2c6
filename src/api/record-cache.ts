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

/**
 * Reads a whole-day book (`GET /user/orders`, `GET /user/trades`) record by record and
 * remembers each record by its exact JSON text, so that a record unchanged since the
 * last read is neither parsed nor validated again, nor allocated anew: the same frozen
 * object comes back. The cost of a read then follows the records that changed, not the
 * day's order count.
 *
 * It answers only when it can vouch for the text: a compact success envelope whose
 * array splits at `},{` into pieces that each are a valid record. Sound whatever the
 * split: pieces that are each a complete JSON value, joined by `,` inside `[` `]`, parse
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
  /** The records of the latest read, by their JSON text; older ones are dropped. */
  private known = new Map<string, R>();

  constructor(private readonly schema: z.ZodType<R>) {}

  /** The records of `text`, or `undefined` when the text must be read the ordinary way. */
  read(text: string): R[] | undefined {
    const envelope = ENVELOPES.find((e) => text.startsWith(e.prefix) && text.endsWith(e.suffix));
    if (envelope === undefined) return undefined;
    const end = text.length - envelope.suffix.length;
    let from = envelope.prefix.length;
    // An empty book is cheap the ordinary way.
    if (from >= end) return undefined;
    const next = new Map<string, R>();
    const records: R[] = [];
    for (;;) {
      const sep = text.indexOf('},{', from);
      const stop = sep === -1 || sep >= end ? end : sep + 1;
      const piece = text.slice(from, stop);
      const record = this.known.get(piece) ?? next.get(piece) ?? this.validate(piece);
      if (record === undefined) return undefined;
      next.set(piece, record);
      records.push(record);
      if (stop === end) break;
      from = stop + 1;
    }
    this.known = next;
    return records;
  }

  /** A new piece: parsed and validated once, frozen because later reads share it. */
  private validate(piece: string): R | undefined {
    let value: unknown;
    try {
      value = JSON.parse(piece);
    } catch {
      return undefined;
    }
    const parsed = this.schema.safeParse(value);
    return parsed.success ? Object.freeze(parsed.data) : undefined;
  }
}
