import { TiqsError, type TiqsErrorDetails } from './tiqs-error.ts';

/**
 * An order operation was sent but its outcome is unknown (time-out, dropped connection,
 * 5xx or unreadable answer). The order may exist. Never retry blindly: reconcile by
 * `tag` (placement) or `orderId` (modify/cancel) against the order book.
 */
export class OutcomeUnknownError extends TiqsError {
  override name = 'OutcomeUnknownError';
  /** The placement's `tags` value, to find the order again. */
  readonly tag: string | undefined;
  /** The order id, for modify and cancel. */
  readonly orderId: string | undefined;

  constructor(
    message: string,
    details: TiqsErrorDetails & { tag?: string | undefined; orderId?: string | undefined },
  ) {
    super(message, details);
    this.tag = details.tag;
    this.orderId = details.orderId;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), tag: this.tag, orderId: this.orderId };
  }
}
