import { join } from 'node:path';
import { SqliteJournal } from '../../execution/sqlite-journal.ts';
import { connectHttpVenue } from './http-venue.ts';
import type { ModeInput, ModeParts } from './mode-parts.ts';

/**
 * Live: orders go to the service through the HTTP client, and the journal persists in
 * the state folder so a restart recovers the day's orders.
 */
export async function liveMode(input: ModeInput): Promise<ModeParts> {
  const venue = await connectHttpVenue(input);
  try {
    const journal =
      input.options.journal ?? new SqliteJournal(join(venue.stateDir, 'journal.sqlite'));
    return {
      ...venue,
      broker: venue.client,
      journal,
      // The service knows its instruments.
      describe: () => undefined,
    };
  } catch (err) {
    await venue.close();
    throw err;
  }
}
