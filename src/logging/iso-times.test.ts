import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './create-logger.ts';
import { withIsoTimes } from './iso-times.ts';

/** 2026-11-23 09:16:01.750 IST. */
const AT = Date.parse('2026-11-23T09:16:01.750+05:30');

describe('withIsoTimes', () => {
  it('adds an ISO IST twin beside each epoch-ms instant, top level and one down, without mutating', () => {
    const event = { type: 'OrderFilled', at: AT, fillQuantity: 10 };
    const record = { at: AT, placedAt: AT + 1000, event, quantity: 10, durationMs: 12 };
    const out = withIsoTimes(record);
    expect(out).toEqual({
      ...record,
      atIso: '2026-11-23T09:16:01.750+05:30',
      placedAtIso: '2026-11-23T09:16:02.750+05:30',
      event: { ...event, atIso: '2026-11-23T09:16:01.750+05:30' },
    });
    // The engine's event object is shared: never changed.
    expect(event).toEqual({ type: 'OrderFilled', at: AT, fillQuantity: 10 });
    expect('atIso' in record).toBe(false);
  });

  it('leaves records without instants as they are (counts and small numbers are not times)', () => {
    const record = { at: 5, quantity: 10, event: { at: 0 } };
    expect(withIsoTimes(record)).toBe(record);
  });

  it('is applied to JSON lines of a logger bound to a bot (context)', () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = createLogger({ format: 'json', destination, context: { now: () => AT } });
    log.info({ event: { type: 'OrderFilled', at: AT } }, 'OrderFilled');
    const line = JSON.parse(lines[0] ?? '{}') as {
      event: Record<string, unknown>;
      marketTime: string;
    };
    expect(line.event).toEqual({
      type: 'OrderFilled',
      at: AT,
      atIso: '2026-11-23T09:16:01.750+05:30',
    });
    expect(line.marketTime).toBe('2026-11-23T09:16:01.750+05:30');
  });
});
