import { toIstIso } from '../domain/ist.ts';

/** Epoch ms between 2000 and 2100: a count or a duration under another name is never taken for one. */
const MIN_EPOCH_MS = 946_684_800_000;
const MAX_EPOCH_MS = 4_102_444_800_000;

/** Whether a field holds an instant: `at`, or a name ending in `At` (`placedAt`, `receivedAt`). */
export function isInstantField(key: string, value: unknown): boolean {
  return (
    (key === 'at' || key.endsWith('At')) &&
    typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= MIN_EPOCH_MS &&
    value < MAX_EPOCH_MS
  );
}

/** The object with `<key>Iso` (ISO, IST offset) beside each instant field; the same object if none. */
function withIso(obj: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(obj)) {
    if (!isInstantField(key, value) || `${key}Iso` in obj) continue;
    out ??= { ...obj };
    out[`${key}Iso`] = toIstIso(value as number);
  }
  return out ?? obj;
}

/**
 * A JSON log record with every epoch-ms instant (`at`, `…At`, at the top and one level down,
 * as in an order event's `event.at`) also given in ISO IST as `<key>Iso`. The epoch fields
 * stay as they were for machines; nothing passed in is mutated (an event object is the
 * engine's own).
 *
 * @example
 * ```ts
 * withIsoTimes({ event: { type: 'OrderFilled', at: 1795405561750 } });
 * // { event: { type: 'OrderFilled', at: 1795405561750, atIso: '2026-11-23T09:16:01.750+05:30' } }
 * ```
 */
export function withIsoTimes(record: Record<string, unknown>): Record<string, unknown> {
  let out = withIso(record);
  for (const [key, value] of Object.entries(out)) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    const inner = withIso(value as Record<string, unknown>);
    if (inner === value) continue;
    if (out === record) out = { ...record };
    out[key] = inner;
  }
  return out;
}
