/**
 * The message of a thrown value, for log lines and status reasons: `Error`s give their
 * message, anything else (a rejected string, say) is stringified.
 *
 * @example
 * ```ts
 * errorMessage(new Error('ECONNRESET')); // 'ECONNRESET'
 * ```
 */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
