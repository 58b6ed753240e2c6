import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForExit } from './helpers/child-process.ts';
import { E2eWorld, fixture } from './helpers/e2e-world.ts';
import { parseLog } from './helpers/json-log.ts';

// `config/paper.yaml` and `config/live.example.yaml` share a state folder: a paper bot on
// the embedded simulator leaves its holiday list there, and a live bot started the next
// morning while the service does not answer must not trade on the simulator's calendar
// (its special sessions are made up). Two real bots, one after the other, on one folder.
// How I checked this can fail: with CalendarStore.loadStored installing any stored copy
// (the code before this test), the live bot logs "calendar loaded from disk" and starts
// with the simulator's calendar, and the expectations on its log fail.

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

describe('e2e: a stored calendar another service wrote', { timeout: 90_000 }, () => {
  it('is not the live bot’s fallback when its own service does not answer', async () => {
    const admin = await world.startSim();
    const strategies = [
      { id: 'quiet', module: fixture('scheduled-orders.ts'), params: { quoteTokens: [3045] } },
    ];
    // A paper bot on the embedded simulator stores its calendar in the shared folder.
    const paper = await world.startBot(
      world.writeConfig(
        world.baseConfig(strategies, {
          mode: 'paper',
          broker: { baseUrl: 'embedded', appId: undefined, token: undefined },
        }),
        'paper.yaml',
      ),
    );
    paper.signal('SIGTERM');
    expect((await waitForExit(paper, 20_000)).code).toBe(0);
    const stored = join(world.stateDir, 'holidays.json');
    expect(existsSync(stored)).toBe(true);
    expect(JSON.parse(readFileSync(stored, 'utf8')).source).toBe('embedded');

    // The live bot's service refuses the holiday list at start.
    await admin.faults({ failRate: 1, routes: ['holidays'] });
    const live = await world.startBot(world.writeConfig(world.baseConfig(strategies), 'live.yaml'));
    live.signal('SIGTERM');
    expect((await waitForExit(live, 20_000)).code).toBe(0);
    const messages = parseLog(live.lines).map((l) => String(l.msg));
    expect(messages).toContain(
      'stored calendar came from another service: not used (the next fetch replaces it)',
    );
    expect(messages).not.toContain('calendar loaded from disk');
    expect(messages).toContain(
      'no trading calendar yet: intents wait until one loads (the service is retried with backoff)',
    );
  });
});
