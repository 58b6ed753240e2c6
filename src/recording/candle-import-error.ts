/**
 * A row of an imported candle file that cannot be read: the file, the line (the header
 * is line 1), the 1-based column and its name when there is one, and why. Also a
 * `--holidays` file that is not the service's holiday shape (no line then).
 *
 * @example
 * ```ts
 * try { await readCandleCsv(file, options); }
 * catch (e) { if (e instanceof CandleImportError) console.error(e.message); } // "a.csv:7: column 3 (high): ..."
 * ```
 */
export class CandleImportError extends Error {
  override readonly name = 'CandleImportError';

  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly column: number | undefined,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(
      `${file}${line === undefined ? '' : `:${line}`}: ${column === undefined ? '' : `column ${column}: `}${reason}`,
      options,
    );
  }
}
