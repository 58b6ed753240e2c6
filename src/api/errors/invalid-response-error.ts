import { TiqsError, type TiqsErrorDetails } from './tiqs-error.ts';

/**
 * The answer did not match the spec: not JSON, no envelope, or a field of the wrong
 * type. `path` names the first offending field, e.g. `data[3].ltp`.
 */
export class InvalidResponseError extends TiqsError {
  override name = 'InvalidResponseError';
  /** Path of the offending field, e.g. `data[3].ltp`; `` for the whole body. */
  readonly path: string;

  constructor(message: string, details: TiqsErrorDetails & { path: string }) {
    super(message, details);
    this.path = details.path;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), path: this.path };
  }
}
