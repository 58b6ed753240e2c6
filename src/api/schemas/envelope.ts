import { z } from 'zod';

/** Success envelope: `{ data, status: "success" }`. */
export const successEnvelopeSchema = z.object({ status: z.literal('success'), data: z.unknown() });

/** Failure envelope: `{ status: "error", message, errorCode }`. */
export const errorEnvelopeSchema = z.object({
  status: z.literal('error'),
  message: z.string(),
  errorCode: z.string(),
});
/** Failure envelope: `{ status: "error", message, errorCode }`. */
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** Error codes of the real service's failure envelope. */
export type ErrorCode =
  | 'BadRequestError'
  | 'NotFoundError'
  | 'TooManyRequests'
  | 'InternalServerError'
  | 'NetworkError'
  | 'SomethingWrongError'
  | 'InternalError'
  | 'Unauthorized'
  | 'Forbidden'
  | 'MarketClosed';
