/** Why a recording could not be written, read or replayed. */
export type RecordingProblem = 'bad-format' | 'not-recorded' | 'too-long' | 'overlap' | 'io';

/**
 * A recording that cannot be used: a bad or truncated file, data asked for that was
 * never recorded, a recording too long for its format, recordings replayed together that
 * overlap in time. Carries the file and the cause.
 *
 * @example
 * ```ts
 * try { await readRecording(dir); } catch (e) { if (e instanceof RecordingError) console.error(e.message); }
 * ```
 */
export class RecordingError extends Error {
  override readonly name = 'RecordingError';

  constructor(
    readonly problem: RecordingProblem,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
