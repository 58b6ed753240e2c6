/**
 * A journal write that did not fully reach the file (a short or failed `write(2)`: disk
 * full, a file-size limit, a quota). Thrown before the request is sent, as a failed
 * SQLite commit throws, so an order whose row is not whole in the journal is never sent.
 */
export class JournalWriteError extends Error {
  override readonly name = 'JournalWriteError';

  constructor(
    message: string,
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
