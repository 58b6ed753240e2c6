import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { SessionError } from '../api/errors/session-error.ts';
import { createLogger } from './create-logger.ts';
import type { LogContext } from './log-context.ts';

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

  it('redacts credentials in pretty lines too', () => {
    const { lines, destination } = capture();
    const log = createLogger({ level: 'info', format: 'pretty', destination });
    const secret = { appId: 'APP-SECRET-1', token: 'TOKEN-SECRET-2' };
    log.info({ credentials: secret, quote: { token: 3045 } }, 'creds');
    log.child({ component: 'api' }).warn({ request: { headers: secret } }, 'headers');
    log.info({ accessToken: 'TOKEN-SECRET-3' }, 'top');
    const out = lines.join('');
    expect(lines).toHaveLength(3);
    expect(out).not.toMatch(/SECRET/);
    expect(out).toContain('[redacted]');
    expect(out).toContain('token: 3045');
  });

  it('stamps marketTime (ISO, IST) from the bound clock, over a field of that name', () => {
    const { lines, destination } = capture();
    const context: LogContext = {};
    const log = createLogger({ level: 'info', format: 'json', destination, context });
    log.info('before the bot exists');
    let now = Date.parse('2026-11-20T03:43:00.000Z');
    context.now = () => now;
    log.child({ component: 'kernel' }).info({ marketTime: 'stale' }, 'bot started');
    now += 61_500;
    log.info({ a: 1 }, 'later');
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records[0]?.marketTime).toBeUndefined();
    expect(records[1]).toMatchObject({
      marketTime: '2026-11-20T09:13:00.000+05:30',
      component: 'kernel',
    });
    expect(records[2]).toMatchObject({ marketTime: '2026-11-20T09:14:01.500+05:30', a: 1 });
    expect(typeof records[2]?.time).toBe('number');
  });

  it('with a simulated clock (a backtest), JSON `time` is the clock’s and the wall time is `wallTime`', () => {
    const { lines, destination } = capture();
    const at = Date.parse('2026-11-20T03:43:00.000Z');
    const context: LogContext = { now: () => at };
    const log = createLogger({
      level: 'info',
      format: 'json',
      destination,
      context,
      simulatedTime: true,
    });
    const before = Date.now();
    log.info('replayed');
    const record = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
    expect(record.time).toBe(at);
    expect(record.wallTime).toBeGreaterThanOrEqual(before);
    expect(record.marketTime).toBe('2026-11-20T09:13:00.000+05:30');
    // Live and paper keep pino's own (wall-clock) time.
    const live = capture();
    createLogger({ level: 'info', format: 'json', destination: live.destination, context }).info(
      'x',
    );
    expect((JSON.parse(live.lines[0] ?? '{}') as { time: number }).time).toBeGreaterThanOrEqual(
      before,
    );
  });

  it('pretty lines carry the bound clock’s IST time and symbols', () => {
    const { lines, destination } = capture();
    const context: LogContext = {
      now: () => Date.parse('2026-11-20T04:01:02.000Z'),
      symbolOf: (t) => (t === 3045 ? 'SBIN-EQ' : undefined),
    };
    const log = createLogger({ level: 'info', format: 'pretty', destination, context });
    log.child({ strategy: 'sma' }).info({ token: 3045, close: 79965 }, 'signal');
    expect(lines.join('')).toBe(
      '── 2026-11-20 Fri IST ──\n09:31:02 IST  sma  signal  token=SBIN-EQ close=₹799.65\n',
    );
  });

  it('auto is pretty on a terminal and JSON elsewhere', () => {
    const tty = {
      text: '',
      isTTY: true,
      write(t: string) {
        this.text += t;
      },
    };
    const pipe = {
      text: '',
      isTTY: false,
      write(t: string) {
        this.text += t;
      },
    };
    createLogger({ format: 'auto', destination: tty }).info('hello');
    createLogger({ format: 'auto', destination: pipe }).info('hello');
    expect(tty.text).toMatch(/^── .* IST ──\n\d\d:\d\d:\d\d IST {2}- {2}hello\n$/);
    expect(JSON.parse(pipe.text)).toMatchObject({ msg: 'hello', level: 30 });
  });

  it('scrubs secret values from a strategy error text, in JSON and pretty lines (review 16b N1)', () => {
    const scrub = (text: string) => text.split('123456:GOODTOKEN').join('***');
    for (const format of ['json', 'pretty'] as const) {
      const { lines, destination } = capture();
      const log = createLogger({ level: 'info', format, destination, scrub });
      log
        .child({ strategy: 'leaky' })
        .error({ err: new Error('bad call with token 123456:GOODTOKEN') }, 'strategy failed');
      const out = lines.join('');
      expect(out).toContain('bad call with token ***');
      expect(out).not.toContain('GOODTOKEN');
    }
  });
});
