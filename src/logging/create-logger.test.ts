import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { SessionError } from '../api/errors/session-error.ts';
import { createLogger } from './create-logger.ts';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, destination };
}

describe('createLogger', () => {
  it('redacts credentials wherever they are nested, and keeps instrument tokens', () => {
    const { lines, destination } = capture();
    const log = createLogger({ level: 'debug', format: 'json', destination });
    const secret = { appId: 'APP-SECRET-1', token: 'TOKEN-SECRET-2' };
    log.info({ credentials: secret }, 'creds');
    log.info({ broker: { baseUrl: 'http://x', ...secret } }, 'config');
    log.child({ component: 'api' }).info({ request: { headers: secret } }, 'headers');
    log.info({ config: { broker: secret } }, 'nested');
    log.info({ appId: secret.appId, quote: { token: 3045, ltp: 80190 } }, 'quote');
    log.error(
      { err: new SessionError('quotes: session expired', { operation: 'quotes' }) },
      'expired',
    );
    const out = lines.join('');
    expect(lines).toHaveLength(6);
    expect(out).not.toContain('APP-SECRET-1');
    expect(out).not.toContain('TOKEN-SECRET-2');
    expect(out).toContain('[redacted]');
    expect(out).toContain('"token":3045');
  });

  it('honours the level', () => {
    const { lines, destination } = capture();
    const log = createLogger({ level: 'warn', format: 'json', destination });
    log.info('quiet');
    log.warn('loud');
    expect(lines).toHaveLength(1);
  });
});
