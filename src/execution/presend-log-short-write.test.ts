import * as fs from 'node:fs';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { Broker } from './broker.ts';
import { JournalWriteError } from './journal-write-error.ts';
import { SqliteJournal } from './sqlite-journal.ts';
import { engineOn, placeIntent, scriptedBroker, settle } from './testing/engine-fixtures.ts';

/** When set, the next pre-send write writes only this many bytes of its row (a full disk). */
const short: { bytes: number | undefined } = { bytes: undefined };

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const writeSync = (fd: number, data: Buffer): number => {
    const cut = short.bytes;
    if (cut === undefined) return real.writeSync(fd, data);
    short.bytes = undefined;
    if (cut < 0) throw Object.assign(new Error('EFBIG: file too large'), { code: 'EFBIG' });
    return real.writeSync(fd, data.subarray(0, cut));
  };
  return { ...real, default: { ...real, writeSync }, writeSync };
});

const dirs: string[] = [];
afterEach(() => {
  short.bytes = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function journalPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'presend-short-'));
  dirs.push(dir);
  return join(dir, 'journal.sqlite');
}

const T0 = Date.parse('2026-11-20T10:00:00+05:30');

describe('pre-send log: a short write (disk full, a size limit)', () => {
  it('throws a typed error with the file cut back to its whole rows', () => {
    const path = journalPath();
    const journal = new SqliteJournal(path);
    const one = {
      tag: 's1-1',
      strategyId: 's1',
      intentId: 'e1',
      status: 'submitting',
      fills: new Set<string>(),
    };
    journal.commitNew(one as never, 1);
    const whole = statSync(`${path}-presend`).size;
    short.bytes = 3;
    let caught: unknown;
    try {
      journal.commitNew({ ...one, tag: 's1-2', intentId: 'e2' } as never, 2);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(JournalWriteError);
    expect((caught as JournalWriteError).path).toBe(`${path}-presend`);
    expect(statSync(`${path}-presend`).size).toBe(whole);
    // A write that throws (EFBIG) is typed too, its error the cause.
    short.bytes = -1;
    expect(() => journal.commitNew({ ...one, tag: 's1-3' } as never, 3)).toThrow(JournalWriteError);
    journal.close();
  });

  it('is cut back to the whole rows and throws before the order is sent', async () => {
    // Checked to fail: with the byte count ignored, placeOrder is called for e2 and the
    // file ends in a torn row.
    expect(fs.writeSync).toBeTypeOf('function');
    const path = journalPath();
    const clock = new VirtualClock(T0);
    const scripted = scriptedBroker({ books: 'empty' });
    const sent: string[] = [];
    const broker: Broker = {
      ...scripted.broker,
      placeOrder: (_variety, request) => {
        sent.push(request.tags ?? '');
        // Never answers: the rows stay in the pre-send log only, as in a kill right now.
        return new Promise(() => undefined);
      },
    };
    const engine = engineOn(broker, clock, new SqliteJournal(path));
    const rejected: string[] = [];
    engine.events$.subscribe((e) => {
      if (e.type === 'OrderRejected') rejected.push(`${e.intentId}: ${e.reason}`);
    });
    void engine.submit(placeIntent('e1'));
    await Promise.resolve();
    const whole = statSync(`${path}-presend`).size;
    expect(sent).toHaveLength(1);

    short.bytes = 20;
    // As a failed SQLite write before it: the placement is rejected, its request never sent.
    void engine.submit(placeIntent('e2'));
    await settle();
    expect(rejected).toEqual([
      expect.stringMatching(/^e2: pre-send log write incomplete \(20 of \d+ bytes\)$/),
    ]);
    expect(sent).toHaveLength(1);
    expect(statSync(`${path}-presend`).size).toBe(whole);
    expect(readFileSync(`${path}-presend`, 'utf8').endsWith('\n')).toBe(true);

    // The next placement's row is whole and a restart knows both sent orders.
    void engine.submit(placeIntent('e3'));
    await Promise.resolve();
    expect(sent).toHaveLength(2);
    const restarted = new SqliteJournal(path);
    const orders = restarted.load().orders;
    expect(orders.map((o) => o.tag)).toEqual(expect.arrayContaining(sent));
    // The rejected placement is final wherever it was kept: a restart must not take it for
    // a live order and re-place what the strategy was told was rejected. Checked to fail:
    // without the status set in placement.ts, e2's row is journalled as `submitting`.
    const e2 = orders.find((o) => o.intentId === 'e2');
    expect(e2 === undefined ? 'absent' : e2.status).toMatch(/^(absent|rejected)$/);
    restarted.close();
  });
});
