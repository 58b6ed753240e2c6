import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { JournalLock } from '../../execution/journal-lock.ts';
import { SqliteJournal } from '../../execution/sqlite-journal.ts';
import { connectHttpVenue } from './http-venue.ts';
import type { ModeInput, ModeParts } from './mode-parts.ts';
import { describeTo, paperBrokerFor } from './shared-parts.ts';

/** Removes a file left by an earlier run and returns its path. */
async function freshFile(path: string): Promise<string> {
  // -presend: the journal's pre-send log, whose rows a fresh journal would otherwise fold in.
  for (const suffix of ['', '-wal', '-shm', '-presend'])
    await rm(`${path}${suffix}`, { force: true });
  return path;
}

/**
 * A fresh paper journal: the lock first, so a second bot on the same state dir is refused
 * before anything of the running bot's journal is removed (the journal then takes over
 * this process's lock).
 */
async function freshJournal(stateDir: string): Promise<SqliteJournal> {
  const path = join(stateDir, 'paper-journal.sqlite');
  new JournalLock(path).acquire();
  return new SqliteJournal(await freshFile(path));
}

/**
 * Paper: market data from the service, orders filled in process by the paper venue.
 * Paper orders live in that venue, which a restart empties, so each run starts a fresh
 * journal (kept for `tiqs-runner orders` until the next run).
 */
export async function paperMode(input: ModeInput): Promise<ModeParts> {
  const venue = await connectHttpVenue(input);
  try {
    const broker = paperBrokerFor(input, venue.clock, venue.feed, venue.sessions);
    const journal = input.options.journal ?? (await freshJournal(venue.stateDir));
    return {
      ...venue,
      broker,
      journal,
      describe: describeTo(broker),
      close: async () => {
        broker.close();
        await venue.close();
      },
    };
  } catch (err) {
    await venue.close();
    throw err;
  }
}
