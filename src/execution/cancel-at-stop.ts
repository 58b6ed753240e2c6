import type { Logger } from 'pino';
import { OutcomeUnknownError } from '../api/errors/outcome-unknown-error.ts';
import { SessionError } from '../api/errors/session-error.ts';
import type { Broker } from './broker.ts';
import type { CancelAttempt } from './run-shutdown.ts';
import type { TrackedOrder } from './tracked-order.ts';
import { untilAborted } from './until-aborted.ts';

/**
 * One cancel at stop, sent again on every call (the stop decides how often): an earlier
 * request may have been lost, and the book, not the answer, is the proof. Never throws;
 * a refused session is handed to `onSessionRefused` and reported as such.
 *
 * @example
 * ```ts
 * const outcome = await cancelAtStop(broker, log, order, signal, (err) => engine.pause(err));
 * ```
 */
export async function cancelAtStop(
  broker: Broker,
  log: Logger,
  order: TrackedOrder,
  signal: AbortSignal,
  onSessionRefused: (err: SessionError) => void,
): Promise<CancelAttempt> {
  if (order.orderId === undefined) return 'failed';
  order.cancelRequested = true;
  try {
    const sent = await untilAborted(
      broker.cancelOrder(order.variety, order.orderId, signal),
      signal,
    );
    if (!sent.done) return 'unknown';
    log.info(
      { tag: order.tag, orderId: order.orderId, symbol: order.intent.instrument.symbol },
      'stopping: cancel sent',
    );
    return 'sent';
  } catch (err) {
    if (err instanceof SessionError) {
      onSessionRefused(err);
      return 'session-refused';
    }
    const unknown = err instanceof OutcomeUnknownError;
    log.warn(
      { err, tag: order.tag, orderId: order.orderId },
      unknown
        ? 'stopping: cancel answer unreadable; checking the book and retrying'
        : 'stopping: cancel refused; checking the book',
    );
    return unknown ? 'unknown' : 'failed';
  }
}
