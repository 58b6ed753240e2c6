import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A message the bot sent. */
interface SentMessage {
  chat: string;
  text: string;
}

/**
 * Delivery settings for a channel under test against the stand-in: small retry waits
 * (the tests drive them with virtual time) and a short request timeout.
 */
export const TEST_QUEUE = {
  queueSize: 20,
  maxRetries: 3,
  retryBaseMs: 500,
  retryMaxMs: 4_000,
  timeoutMs: 5_000,
} as const;

/** A stand-in for the Telegram Bot API on loopback (getMe, sendMessage, getUpdates). */
export interface FakeTelegram {
  /** The `apiRoot` to give grammy. */
  apiRoot: string;
  sent: SentMessage[];
  /** Every method called, in order (`sendMessage`, `getUpdates`, …). */
  calls: string[];
  /** Long polls (held getUpdates) the client gave up on before they were answered. */
  readonly cutPolls: number;
  /** Answers the next sendMessage with 429 and this `retry_after` (seconds). */
  throttleNext(retryAfterSeconds: number): void;
  /** Never answers the next sendMessage (a hung service): the client must give up. */
  hangNextSend(): void;
  /** Never answers the next call of `method` (deleteWebhook, getMe…): the client must give up. */
  hangNext(method: string): void;
  /** Queues a text message from `chat` (a command: `/status`), answered by the next getUpdates. */
  say(chat: number, text: string): void;
  /** Resolves once `n` messages were sent (real I/O, bounded by `timeoutMs`). */
  waitForSent(n: number, timeoutMs?: number): Promise<SentMessage[]>;
  close(): Promise<void>;
}

/** Starts the stand-in; requests under any token other than `token` are answered 401. */
export async function startFakeTelegram(token: string): Promise<FakeTelegram> {
  const sent: SentMessage[] = [];
  const calls: string[] = [];
  const updates: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const w of [...waiters]) w();
  };
  let nextUpdate = 1;
  let throttle: number | undefined;
  let closing = false;
  let cutPolls = 0;
  let hang = false;
  const hangOnce = new Set<string>();
  const reply = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  const handle = (req: IncomingMessage, res: ServerResponse, params: Record<string, unknown>) => {
    const m = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
    if (m === null || m[1] !== token)
      return reply(res, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
    const method = m[2] as string;
    calls.push(method);
    if (hangOnce.delete(method)) return;
    switch (method) {
      case 'getMe':
        return reply(res, 200, {
          ok: true,
          result: { id: 42, is_bot: true, first_name: 'tiqs', username: 'tiqs_test_bot' },
        });
      case 'deleteWebhook':
        return reply(res, 200, { ok: true, result: true });
      case 'sendMessage': {
        if (hang) {
          hang = false;
          return;
        }
        if (throttle !== undefined) {
          const retry_after = throttle;
          throttle = undefined;
          return reply(res, 429, {
            ok: false,
            error_code: 429,
            description: `Too Many Requests: retry after ${retry_after}`,
            parameters: { retry_after },
          });
        }
        const chat = String(params.chat_id);
        sent.push({ chat, text: String(params.text) });
        notify();
        return reply(res, 200, {
          ok: true,
          result: {
            message_id: sent.length,
            date: 0,
            chat: { id: Number(chat), type: 'private' },
            text: params.text,
          },
        });
      }
      case 'getUpdates': {
        const offset = Number(params.offset ?? 0);
        const pending = () => updates.filter((u) => (u.update_id as number) >= offset);
        const answer = () => reply(res, 200, { ok: true, result: pending() });
        const timeout = Number(params.timeout ?? 0);
        if (pending().length > 0 || timeout === 0 || closing) return answer();
        // Long polling: held until an update comes, the client gives up, or the server closes.
        const release = () => {
          if (pending().length === 0 && !closing) return;
          waiters.delete(release);
          answer();
        };
        waiters.add(release);
        // The response's close, not the request's: a request closes once its body is read,
        // which dropped every held poll (answered only after the client's own timeout).
        res.on('close', () => {
          if (!res.writableEnded) cutPolls++;
          waiters.delete(release);
        });
        return;
      }
      default:
        return reply(res, 404, { ok: false, error_code: 404, description: 'Not Found: method' });
    }
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      handle(req, res, text === '' ? {} : (JSON.parse(text) as Record<string, unknown>));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiRoot: `http://127.0.0.1:${port}`,
    sent,
    calls,
    get cutPolls() {
      return cutPolls;
    },
    throttleNext: (s) => {
      throttle = s;
    },
    hangNextSend: () => {
      hang = true;
    },
    hangNext: (method) => {
      hangOnce.add(method);
    },
    say: (chat, text) => {
      const command = /^\/\w+/.exec(text)?.[0];
      updates.push({
        update_id: nextUpdate++,
        message: {
          message_id: nextUpdate,
          date: 0,
          chat: { id: chat, type: 'private' },
          from: { id: chat, is_bot: false, first_name: 'trader', username: `u${chat}` },
          text,
          ...(command === undefined
            ? {}
            : { entities: [{ type: 'bot_command', offset: 0, length: command.length }] }),
        },
      });
      notify();
    },
    waitForSent: (n, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (sent.length < n) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(sent.slice());
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${n} Telegram messages, got ${sent.length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: () => {
      closing = true;
      notify();
      return new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
