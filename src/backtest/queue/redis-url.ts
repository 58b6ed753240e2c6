/** How to reach the queue's Redis: what ioredis and BullMQ take as connection options. */
export interface QueueConnection {
  readonly host: string;
  readonly port: number;
  readonly db: number;
  readonly username?: string;
  readonly password?: string;
  /** Present for `rediss://`: TLS, checked against the host name. */
  readonly tls?: { readonly servername: string };
}

/**
 * A `--queue` URL that cannot be used. The message names the flag and shows the URL with
 * any password masked: a password in the URL is a secret and never reaches a log.
 */
export class QueueUrlError extends Error {
  override name = 'QueueUrlError';
  /** Where the URL came from, e.g. `--queue`. */
  readonly where: string;

  constructor(where: string, url: string, problem: string, options?: { cause?: unknown }) {
    super(
      `${where}: ${problem} (got ${redactQueueUrl(url)}; expected redis://HOST:PORT[/DB])`,
      options,
    );
    this.where = where;
  }
}

const DEFAULT_PORT = 6379;

/**
 * The queue's URL for a log line or an error, with no secret in it. Built from the parsed
 * parts (scheme, user, host, port, db) rather than by editing the text, so no spelling of
 * a password (a raw `@` in the user, a `/` in the password) slips through: a password is
 * `***`, a query (which may carry one) is dropped. A text that does not parse shows its
 * scheme and a guess at its host (after the last `@`) and nothing else of what follows `//`.
 */
export function redactQueueUrl(url: string): string {
  const text = url.trim();
  let parsed: URL | undefined;
  try {
    parsed = new URL(text);
  } catch {
    parsed = undefined;
  }
  if (parsed !== undefined && parsed.host !== '') {
    const user = parsed.username;
    const credentials = parsed.password !== '' ? `${user}:***@` : user !== '' ? `${user}@` : '';
    return `${parsed.protocol}//${credentials}${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  }
  const slashes = text.indexOf('//');
  const at = text.lastIndexOf('@');
  if (slashes < 0) return at < 0 ? text : `***@${hostGuess(text.slice(at + 1))}`;
  const rest = text.slice(slashes + 2);
  const afterAt = rest.lastIndexOf('@');
  const host = hostGuess(afterAt < 0 ? rest : rest.slice(afterAt + 1));
  return `${text.slice(0, slashes + 2)}${afterAt < 0 ? '' : '***@'}${host}`;
}

/** The host[:port] at the start of what follows the credentials: up to a `/`, `?` or `#`. */
function hostGuess(text: string): string {
  return text.split(/[/?#]/, 1)[0] ?? '';
}

/**
 * Parses `redis://[USER:PASSWORD@]HOST[:PORT][/DB]` (or `rediss://` for TLS) into ioredis
 * connection options. `where` names the flag or setting for the error, e.g. `--queue`.
 * Throws {@link QueueUrlError} for anything else (another scheme, a query, a bad port or db).
 */
export function parseQueueUrl(text: string, where: string): QueueConnection {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    // No `cause`: Node's URL error carries the whole input, password and all.
    throw new QueueUrlError(where, text, 'not a URL');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw new QueueUrlError(where, text, `scheme ${url.protocol} is not redis: or rediss:`);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') throw new QueueUrlError(where, text, 'no host');
  const port = url.port === '' ? DEFAULT_PORT : Number(url.port);
  if (!Number.isInteger(port) || port < 1 || port > 65_535)
    throw new QueueUrlError(where, text, `port ${url.port} is out of range`);
  const path = url.pathname.replace(/^\//, '');
  if (!/^\d*$/.test(path))
    throw new QueueUrlError(where, text, `database "${path}" is not a number`);
  if (url.search !== '' || url.hash !== '')
    throw new QueueUrlError(where, text, 'query and fragment are not supported');
  const username = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  return {
    host,
    port,
    db: path === '' ? 0 : Number(path),
    ...(username === '' ? {} : { username }),
    ...(password === '' ? {} : { password }),
    ...(url.protocol === 'rediss:' ? { tls: { servername: host } } : {}),
  };
}

/**
 * ioredis reconnect delay for the queue's clients: 250 ms more per attempt, at most 2 s,
 * for ever (BullMQ's default backs off to 20 s, so a Redis back would be seen late).
 */
export function reconnectDelay(attempt: number): number {
  return Math.min(attempt * 250, 2_000);
}
