/**
 * Client order ids (`tags`): `<strategyId>-<ms base 36>-<seq base 36>`, unique per
 * engine. A cover order's stop leg is followed as `<tag>/SL`, under its parent's tag.
 *
 * @example
 * ```ts
 * orderTag('sma', 1_763_600_000_000, 7); // 'sma-mi6pwl4w-7'
 * tagSeq('sma-mi6pwl4w-7/SL'); // 7
 * ```
 */
export function orderTag(strategyId: string, now: number, seq: number): string {
  return `${strategyId}-${now.toString(36)}-${seq.toString(36)}`;
}

/**
 * The sequence number in a tag this engine made, or undefined for one it did not (the
 * `/SL` suffix of a stop leg is its parent's tag, not a number).
 */
export function tagSeq(tag: string): number | undefined {
  const main = tag.endsWith('/SL') ? tag.slice(0, -3) : tag;
  const seq = /-([0-9a-z]+)-([0-9a-z]+)$/.exec(main)?.[2];
  return seq === undefined ? undefined : Number.parseInt(seq, 36);
}
