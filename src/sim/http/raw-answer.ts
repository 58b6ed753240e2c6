/**
 * An answer sent as it is, outside the `{data, status}` envelope: the routes beyond the
 * spec that serve a file (the instrument master's CSV) or a bare body.
 *
 * @example
 * ```ts
 * return new RawAnswer('Exchange,Token\nNSE,3045\n', 'application/octet-stream');
 * ```
 */
export class RawAnswer {
  constructor(
    /** The response body. */
    readonly body: string,
    /** Its `content-type`. */
    readonly contentType: string,
  ) {}
}
