import { ReplyError } from 'ioredis';

/** Redis's answers to a bad password (AUTH refused, or a command before AUTH). */
export const AUTH_ERROR = /WRONGPASS|NOAUTH|invalid password|invalid username-password/i;

/**
 * Whether `err` is Redis's or its connection's (a reply error, a closed or refused
 * connection, a refused AUTH), as opposed to a bug of ours. Told by class where ioredis
 * exports it (`ReplyError`: one copy in node_modules, the one bullmq uses), by name for a
 * copy loaded twice, and by message for connection errors ioredis does not export.
 *
 * @example
 * ```ts
 * process.on('unhandledRejection', (e) => (isRedisError(e) ? warn(e) : exit(e)));
 * ```
 */
export function isRedisError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return (
    err instanceof ReplyError ||
    err.name === 'ReplyError' ||
    err.name === 'ConnectionClosedError' ||
    /Connection is closed|Stream isn't writeable|ECONNREFUSED|ECONNRESET/.test(err.message) ||
    AUTH_ERROR.test(err.message)
  );
}
