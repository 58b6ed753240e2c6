import type { ServerResponse } from 'node:http';
import type { Clock } from '../../clock/clock.ts';
import { sleep } from '../../clock/sleep.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Sends the headers and half the body, then never completes it: the stall a client's
 * header timeout does not see. The socket stays open until the client gives up or the
 * simulator closes.
 */
export function stallResponse(res: ServerResponse, body: string): void {
  if (res.destroyed) return;
  const bytes = Buffer.from(body, 'utf8');
  res.writeHead(200, { 'content-type': JSON_TYPE, 'content-length': bytes.length });
  res.write(bytes.subarray(0, Math.floor(bytes.length / 2)));
}

/**
 * Sends the body one byte every `intervalMs` (network clock): a response that is always
 * making progress and, for any practical body, never ends.
 */
export async function trickleResponse(
  res: ServerResponse,
  body: string,
  intervalMs: number,
  clock: Clock,
): Promise<void> {
  if (res.destroyed) return;
  const bytes = Buffer.from(body, 'utf8');
  res.writeHead(200, { 'content-type': JSON_TYPE, 'content-length': bytes.length });
  for (let i = 0; i < bytes.length; i++) {
    if (res.destroyed || res.writableEnded) return;
    res.write(bytes.subarray(i, i + 1));
    await sleep(clock, intervalMs);
  }
  if (!res.destroyed) res.end();
}

/** Redirects to the same path on another origin, as a hostile or misconfigured proxy would. */
export function redirectResponse(
  res: ServerResponse,
  status: 302 | 307,
  origin: string,
  path: string,
): void {
  if (res.destroyed) return;
  const location = new URL(path, origin).toString();
  const body = JSON.stringify({ status: 'error', message: `Moved to ${location}` });
  res.writeHead(status, {
    location,
    'content-type': JSON_TYPE,
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}
