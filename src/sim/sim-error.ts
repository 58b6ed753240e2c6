import type { ErrorCode } from '../api/schemas/envelope.ts';

/**
 * A request the simulator refuses. The HTTP layer turns it into the failure envelope
 * `{status: "error", message, errorCode}` with `status` as the HTTP status; in-process
 * callers (paper mode, tests) can catch it directly.
 */
export class SimError extends Error {
  override readonly name = 'SimError';

  constructor(
    /** HTTP status that fits: 400, 401, 403, 404, 405, 413, 429, 5xx. */
    readonly status: number,
    /** Error code name as the real service spells them. */
    readonly errorCode: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** 400 `BadRequestError`. */
export function badRequest(message: string): SimError {
  return new SimError(400, 'BadRequestError', message);
}

/** 404 `NotFoundError`. */
export function notFound(message: string): SimError {
  return new SimError(404, 'NotFoundError', message);
}
