import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteJournal } from './sqlite-journal.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The connection's `synchronous` level (a per-connection setting: read on the journal's own). */
function syncLevel(journal: SqliteJournal): number {
  const db = (journal as unknown as { db: Database.Database }).db;
  return db.pragma('synchronous', { simple: true }) as number;
}

describe('SqliteJournal durability setting', () => {
  it('runs WAL with synchronous NORMAL by default and FULL on request', () => {
    // Checked to fail: ignoring the option leaves FULL at 1 (NORMAL).
    const dir = mkdtempSync(join(tmpdir(), 'journal-sync-'));
    dirs.push(dir);
    const normal = new SqliteJournal(join(dir, 'a.db'));
    const full = new SqliteJournal(join(dir, 'b.db'), { synchronous: 'full' });
    expect([syncLevel(normal), syncLevel(full)]).toEqual([1, 2]);
    normal.close();
    full.close();
  });
});
