/**
 * Orders strings by UTF-16 code unit, the same on every machine and locale (unlike
 * `localeCompare`): what job ids, code versions and manifests hash must not depend on
 * where they were taken.
 *
 * @example
 * ```ts
 * paths.sort(byCodePoint);
 * ```
 */
export const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
