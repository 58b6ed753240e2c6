import { createHash } from 'node:crypto';

/**
 * Whether `id` is a source key (`embedded`, `inprocess`, a digest of a base URL): safe in a
 * file name or a message, where a URL (perhaps with credentials) is not.
 */
export function isSourceKey(id: string): boolean {
  return /^[a-z0-9]{1,64}$/.test(id);
}

/**
 * The stored holiday list's file name in a state folder, one per service it came from
 * (`sourceId`: `embedded` for the in-process simulator, else a digest of the base URL):
 * `holidays-embedded.json`, `holidays-3f0c6a1b2d4e.json`. A state folder shared by a paper
 * config (the simulator) and a live one (the service) then keeps each one's copy, and a
 * live bot whose service does not answer at start falls back on its own copy, never on
 * the simulator's. Any other id is digested, so nothing from it reaches a file name.
 *
 * @example
 * ```ts
 * calendarFileName('embedded'); // 'holidays-embedded.json'
 * ```
 */
export function calendarFileName(sourceId: string): string {
  const key = isSourceKey(sourceId)
    ? sourceId
    : createHash('sha256').update(sourceId).digest('hex').slice(0, 12);
  return `holidays-${key}.json`;
}
