/**
 * A candle recording folder that cannot take what is asked of it: a rerun with another
 * interval, other tokens or another range, or a folder holding a tick recording. The
 * message names the folder, what it holds and what was asked. An input error, not a fault.
 *
 * @example
 * ```ts
 * try { await CandleRecordingWriter.open(dir, init, 'resume'); }
 * catch (e) { if (e instanceof CandleRecordingMismatch) console.error(e.message); }
 * ```
 */
export class CandleRecordingMismatch extends Error {
  override readonly name = 'CandleRecordingMismatch';
}
