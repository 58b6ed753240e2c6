import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { JournalReader } from './journal-reader.ts';
import { SqliteJournal } from './sqlite-journal.ts';
import { journalOrder } from './testing/engine-fixtures.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const sqliteTags = (path: string) => {
  const db = new Database(path, { readonly: true });
  const rows = db.prepare('SELECT tag, status FROM orders ORDER BY rowid').all();
  db.close();
  return rows;
};

describe('JournalReader (tiqs-runner orders / positions beside a live bot)', () => {
  it("shows the bot's pre-send rows without writing them into its journal", () => {
    // Checked to fail: without the pre-send rows merged, s1-2 is missing; opened as a
    // SqliteJournal (as before), s1-2 is folded into SQLite and the log emptied.
    const dir = mkdtempSync(join(tmpdir(), 'journal-reader-'));
    dirs.push(dir);
    const path = join(dir, 'journal.sqlite');
    const bot = new SqliteJournal(path);
    const one = journalOrder(1);
    bot.commitNew(one, 1_001);
    one.status = 'complete';
    bot.commit({ orders: [one], at: 1_002 });
    bot.commitNew(journalOrder(2), 1_003);
    // The bot is still running: s1-1 is in SQLite, s1-2 in the pre-send log only (and s1-1
    // still there too, the log not yet emptied by a poll).
    const log = readFileSync(`${path}-presend`, 'utf8');
    const reader = new JournalReader(path);
    expect(reader.load().orders.map((o) => [o.tag, o.status])).toEqual([
      ['s1-1', 'complete'],
      ['s1-2', 'submitting'],
    ]);
    reader.close();
    expect(sqliteTags(path)).toEqual([{ tag: 's1-1', status: 'complete' }]);
    expect(readFileSync(`${path}-presend`, 'utf8')).toBe(log);
    bot.close();
  });
});
