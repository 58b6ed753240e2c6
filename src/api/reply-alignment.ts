import { InvalidResponseError } from './errors/invalid-response-error.ts';

/**
 * Checks that a per-token reply lines up with the request: as many entries as `tokens`
 * and, when `tokenAt` is given, entry `i` naming `tokens[i]`. A reply that does not is an
 * {@link InvalidResponseError}, since pairing it by position would misattribute data.
 *
 * @example
 * ```ts
 * expectAligned('quotes:ltp', [3045, 1594], data.length, (i) => data[i]?.token);
 * ```
 */
export function expectAligned(
  operation: string,
  tokens: readonly number[],
  length: number,
  tokenAt?: (i: number) => number | undefined,
): void {
  if (length !== tokens.length) {
    throw new InvalidResponseError(
      `${operation}: asked for ${tokens.length} tokens, got ${length} entries`,
      { operation, path: 'data' },
    );
  }
  if (tokenAt === undefined) return;
  tokens.forEach((token, i) => {
    if (tokenAt(i) !== token) {
      throw new InvalidResponseError(
        `${operation}: data[${i}].token is not the requested ${token}`,
        {
          operation,
          path: `data[${i}].token`,
        },
      );
    }
  });
}
