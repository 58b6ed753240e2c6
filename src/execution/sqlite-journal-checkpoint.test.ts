import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { SqliteJournal } from './sqlite-journal.ts';

describe('SqliteJournal checkpoints', () => {
  it('moves the WAL into the database file on its own thread, and the data stays readable', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'tr-ckpt-')), 'journal.sqlite');
    const journal = new SqliteJournal(path);
    const before = statSync(path).size;
    for (let i = 0; i < 200; i++) journal.setMeta(`k${i}`, 'x'.repeat(200));
    // Nothing reaches the database file until a checkpoint: autocheckpoint is off.
    expect(statSync(path).size).toBe(before);
    journal.checkpoint();
    // Real file I/O on another thread: wait for it, bounded.
    await vi.waitFor(() => expect(statSync(path).size).toBeGreaterThan(before), {
      timeout: 5_000,
      interval: 10,
    });
    journal.setMeta('after', 'y');
    journal.close();
    const reopened = new SqliteJournal(path);
    expect(reopened.getMeta('k199')).toBe('x'.repeat(200));
    expect(reopened.getMeta('after')).toBe('y');
    reopened.close();
  });
});
