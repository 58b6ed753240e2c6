import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { deadPid } from '../helpers/dead-pid.ts';

const LOCK_MODULE = pathToFileURL(resolve('dist/execution/journal-lock.js')).href;
const ROUNDS = 8;
const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * A process that, once `go` exists, tries to take the journal lock of `journal` and says
 * `won` or `refused`, then holds it (never releasing) until killed.
 */
function contender(journal: string, go: string): { ready: Promise<void>; said: Promise<string> } {
  const script = `
const { existsSync } = require('node:fs');
const nap = new Int32Array(new SharedArrayBuffer(4));
import(${JSON.stringify(LOCK_MODULE)}).then(({ JournalLock, JournalLockedError }) => {
  console.log('ready');
  while (!existsSync(${JSON.stringify(go)})) Atomics.wait(nap, 0, 0, 1);
  try { new JournalLock(${JSON.stringify(journal)}).acquire(); console.log('won'); }
  catch (err) { console.log(err instanceof JournalLockedError ? 'refused' : 'error ' + err.message); }
  setInterval(() => {}, 1000);
});`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const lines: string[] = [];
  const waiters: (() => void)[] = [];
  child.stdout.on('data', (d: Buffer) => {
    lines.push(...d.toString().trim().split('\n'));
    for (const w of waiters.splice(0)) w();
  });
  const line = (n: number): Promise<string> =>
    new Promise((done, fail) => {
      const look = () => {
        if (lines.length > n) done(lines[n] as string);
        else waiters.push(look);
      };
      child.once('exit', (code) => fail(new Error(`contender exited ${code}`)));
      look();
    });
  return { ready: line(0).then(() => undefined), said: line(1) };
}

// Two bots started at the same instant after a crash (a supervisor and an operator, say)
// both found the dead bot's journal lock stale and both took it over: two writers on one
// journal, which "never duplicates an order" rests on. The look, the removal and the new
// lock are now one step under an SQLite lock every process shares.
// Checked to fail: with acquire() outside the guard and a 30 ms pause between reading the
// stale lock and removing it, both contenders won in every round.
describe('journal lock: two processes taking over a dead one at once', () => {
  it(`lets exactly one win, in each of ${ROUNDS} rounds`, async () => {
    const dead = await deadPid();
    for (let round = 0; round < ROUNDS; round++) {
      const dir = mkdtempSync(join(tmpdir(), 'journal-race-'));
      dirs.push(dir);
      const journal = join(dir, 'journal.sqlite');
      writeFileSync(`${journal}.lock`, String(dead));
      const go = join(dir, 'go');
      const both = [contender(journal, go), contender(journal, go)];
      // Both up and polling for the signal before it is given.
      await Promise.all(both.map((c) => c.ready));
      writeFileSync(go, '');
      const said = (await Promise.all(both.map((c) => c.said))).sort();
      expect(said, `round ${round}`).toEqual(['refused', 'won']);
      for (const c of children.splice(0)) c.kill('SIGKILL');
    }
  }, 60_000);
});
