import { createHash } from 'node:crypto';
import type { ParamOverrides } from '../backtest-spec.ts';
import { byCodePoint } from './code-point-order.ts';
import type { DataFile } from './queue-protocol.ts';

/** What makes a queued run the same run: its id is a digest of these. */
export interface JobIdInputs {
  readonly specText: string;
  readonly params: ParamOverrides;
  readonly data: readonly DataFile[];
  readonly codeVersion: string;
}

/** Code-point order, not the locale's: every machine sorts alike. */

/**
 * The BullMQ job id of one sweep run: `run-<sha256 hex>` over a canonical JSON of the
 * spec's text, the params (keys sorted), the data files (by path; path, size, sha256
 * only) and the code version. The same inputs give the same id on every machine, so a
 * resubmitted sweep finds its jobs (BullMQ ignores an add with an existing id).
 */
export function sweepJobId(inputs: JobIdInputs): string {
  const params = Object.keys(inputs.params)
    .sort(byCodePoint)
    .map((key) => [key, inputs.params[key]]);
  const data = [...inputs.data]
    .sort((a, b) => byCodePoint(a.path, b.path))
    .map((f) => [f.path, f.size, f.sha256]);
  const canonical = JSON.stringify({
    v: 1,
    spec: inputs.specText,
    params,
    data,
    code: inputs.codeVersion,
  });
  return `run-${createHash('sha256').update(canonical).digest('hex')}`;
}
