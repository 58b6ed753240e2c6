import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instrumentMasterSourceKey } from '../../src/market-data/instruments/instrument-master-source-key.ts';
import { waitForExit } from './helpers/child-process.ts';
import { E2eWorld, fixture } from './helpers/e2e-world.ts';
import { parseLog } from './helpers/json-log.ts';

// `config/paper.yaml` and `config/live.example.yaml` share a state folder: a paper bot on
// the embedded simulator leaves its holiday list there, and a live bot started the next
// morning while the service does not answer must not trade on the simulator's calendar
// (its special sessions are made up). Real bots, one after the other, on one folder: each
// service keeps its own copy (src/calendar/calendar-file-name.ts).
// How I checked this can fail: with one `holidays.json` for every service and
// CalendarStore.loadStored installing any stored copy (the code before this test), the
// live bot's first run logs "calendar loaded from disk" and starts on the simulator's
// calendar; with the one file and only the source check, the test stops at the
// simulator's file, not found under its own name (and, named `holidays.json` there, at the
// two files expected side by side: the live bot's copy replaced the simulator's).

const DAY = '2026-11-20';
let world: E2eWorld;
beforeAll(() => {
  world = new E2eWorld({
    start: `${DAY}T09:20:00+05:30`,
    speed: 1,
    anchor: new Date(Date.now() + 2_000).toISOString(),
  });
});
afterAll(() => world.dispose());

describe('e2e: a stored calendar another service wrote', { timeout: 120_000 }, () => {
  it('is not the live bot’s fallback; the live bot keeps its own beside it', async () => {
    const admin = await world.startSim();
    const strategies = [
      { id: 'quiet', module: fixture('scheduled-orders.ts'), params: { quoteTokens: [3045] } },
    ];
    const run = async (config: string, until?: string) => {
      const bot = await world.startBot(config);
      if (until !== undefined) await bot.waitForLine((l) => l.includes(until), 20_000, until);
      bot.signal('SIGTERM');
      expect((await waitForExit(bot, 20_000)).code).toBe(0);
      return parseLog(bot.lines).map((l) => String(l.msg));
    };
    const noCalendar =
      'no trading calendar yet: intents wait until one loads (the service is retried with backoff)';
    // A paper bot on the embedded simulator stores its calendar in the shared folder.
    await run(
      world.writeConfig(
        world.baseConfig(strategies, {
          mode: 'paper',
          broker: { baseUrl: 'embedded', appId: undefined, token: undefined },
        }),
        'paper.yaml',
      ),
    );
    const simCopy = join(world.stateDir, 'holidays-embedded.json');
    const simText = readFileSync(simCopy, 'utf8');
    expect(JSON.parse(simText).source).toBe('embedded');

    // The live bot's service refuses the holiday list at start: no calendar at all.
    const live = world.writeConfig(world.baseConfig(strategies), 'live.yaml');
    await admin.faults({ failRate: 1, routes: ['holidays'] });
    const first = await run(live);
    expect(first).not.toContain('calendar loaded from disk');
    expect(first).toContain(noCalendar);

    // Once it answers, the live bot stores its own copy beside the simulator's…
    await admin.faults({ reset: true });
    await run(live, '"calendar refreshed"');
    const ownFile = `holidays-${instrumentMasterSourceKey(admin.url)}.json`;
    expect(
      readdirSync(world.stateDir)
        .filter((f) => f.startsWith('holidays-'))
        .sort(),
    ).toEqual([ownFile, 'holidays-embedded.json'].sort());
    expect(readFileSync(simCopy, 'utf8')).toBe(simText);

    // …and falls back on it the next time its service does not answer. Made a day old
    // first, so the bot asks the service rather than starting on a current copy.
    const ownPath = join(world.stateDir, ownFile);
    const stored = JSON.parse(readFileSync(ownPath, 'utf8'));
    const dayBefore = new Date(Date.parse(stored.fetchedAt) - 86_400_000).toISOString();
    writeFileSync(ownPath, JSON.stringify({ ...stored, fetchedAt: dayBefore }));
    await admin.faults({ failRate: 1, routes: ['holidays'] });
    const third = await run(live);
    expect(third).toContain('calendar loaded from disk');
    expect(third).toContain('calendar fetch failed; keeping last good copy');
    expect(third).not.toContain(noCalendar);
  });
});
