import { z } from 'zod';
import type { Call } from './interpret-answer.ts';

/** Stands in for the envelope schema: the master is never read through it (see below). */
const csvText = z.string();

/**
 * The `GET /all` call (api-facts.md, "Instrument master"): its answer is a CSV file, not a
 * JSON envelope, so the whole body of a 2xx answer is handed over as it came (the call's
 * `records` hook, which a successful answer reaches before any JSON parse). Anything else
 * — 404 from a service without the route, 401, 429, 5xx, or a JSON envelope even with a
 * 2xx status — is the usual typed error. It
 * is a read (retried with backoff) in the `other` rate class.
 *
 * @example
 * ```ts
 * const csv = await transport.send(instrumentMasterCall(signal));
 * ```
 */
export function instrumentMasterCall(signal?: AbortSignal): Call<string> {
  return {
    operation: 'instrumentMaster',
    method: 'GET',
    path: '/all',
    schema: csvText,
    // A JSON body is never the CSV file: `undefined` sends it down the ordinary path, where
    // a failure envelope (even with HTTP 200) is the usual RefusedError, not a parse error.
    records: { read: (text) => (text.trimStart().startsWith('{') ? undefined : text) },
    rateClass: 'other',
    kind: 'read',
    signal,
  };
}
