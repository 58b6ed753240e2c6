import { createHmac } from 'node:crypto';
import type { AlertKind } from '../../config/notify-config-schema.ts';
import { type Alert, alertPayload } from './alert.ts';
import type { AlertChannel, ChannelDeps, QueueSettings } from './alert-channel.ts';
import { DeliveryQueue, type DeliveryStats, type SendOutcome } from './delivery-queue.ts';

/** The header carrying the body's signature. */
const SIGNATURE_HEADER = 'X-Tiqs-Runner-Signature';

/** `sha256=<hex HMAC-SHA256 of the exact body>`, as the receiver recomputes it. */
export function signBody(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** `notify.webhook` as validated. */
export interface WebhookSettings {
  url: string;
  secret?: string | undefined;
  events?: readonly AlertKind[] | undefined;
}

/** Seconds of a `Retry-After` header (the date form is rare for webhooks: ignored). */
function retryAfterMs(header: string | null): number | undefined {
  const s = header === null ? Number.NaN : Number(header);
  return Number.isFinite(s) && s >= 0 ? s * 1000 : undefined;
}

/**
 * POSTs each alert as JSON to `notify.webhook.url`, signed with the secret when one is
 * set. A 429 or 5xx or a network failure is retried with backoff; any other 4xx is not.
 * Problems are logged without the URL's path or query (a Slack or Discord hook URL is
 * itself a secret) and without any secret.
 */
export class WebhookChannel implements AlertChannel {
  readonly name = 'webhook';
  private readonly queue: DeliveryQueue<string>;
  private readonly where: string;

  constructor(
    private readonly settings: WebhookSettings,
    queue: QueueSettings,
    private readonly deps: ChannelDeps,
  ) {
    this.where = new URL(settings.url).origin;
    const log = deps.logger.child({ component: 'notify', channel: 'webhook' });
    this.queue = new DeliveryQueue<string>({
      capacity: queue.queueSize,
      maxRetries: queue.maxRetries,
      retryBaseMs: queue.retryBaseMs,
      retryMaxMs: queue.retryMaxMs,
      send: (body) => this.post(body, queue.timeoutMs),
      onProblem: (reason, final) =>
        log.warn({ event: 'alert-delivery', final }, `webhook to ${this.where}: ${reason}`),
      ...(deps.wait === undefined ? {} : { wait: deps.wait }),
    });
  }

  deliver(alert: Alert): void {
    const payload = alertPayload(alert, { mode: this.deps.mode });
    this.queue.push(this.deps.scrub(JSON.stringify(payload)));
  }

  stats(): DeliveryStats {
    return this.queue.stats();
  }

  start(): void {}

  beginStop(): void {}

  async stop(signal: AbortSignal): Promise<void> {
    await this.queue.flush(signal);
    this.queue.close();
  }

  private async post(body: string, timeoutMs: number): Promise<SendOutcome> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'tiqs-runner',
    };
    if (this.settings.secret !== undefined)
      headers[SIGNATURE_HEADER] = signBody(body, this.settings.secret);
    try {
      const res = await fetch(this.settings.url, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      // The body is not needed; reading it frees the socket for the next alert.
      await res.arrayBuffer().catch(() => undefined);
      if (res.ok) return { kind: 'sent' };
      const reason = `HTTP ${res.status}`;
      if (res.status === 429 || res.status >= 500) {
        const after = retryAfterMs(res.headers.get('retry-after'));
        return after === undefined
          ? { kind: 'retry', reason }
          : { kind: 'retry', reason, afterMs: after };
      }
      return { kind: 'fail', reason };
    } catch (err) {
      // fetch's own errors name no URL, but their cause may: keep the names only.
      const e = err as Error & { cause?: { code?: string } };
      const code = e.cause?.code === undefined ? '' : ` (${e.cause.code})`;
      return { kind: 'retry', reason: this.deps.scrub(`${e.name}${code}`) };
    }
  }
}
