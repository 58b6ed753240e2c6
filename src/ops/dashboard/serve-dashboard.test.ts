import { createServer } from 'node:net';
import pino from 'pino';
import { Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/load-config.ts';
import type { BotControls, BotStatus } from '../../runtime/bot-controls.ts';
import type { RunningDashboard } from './dashboard-server.ts';
import { serveDashboard } from './serve-dashboard.ts';

const status: BotStatus = {
  at: 0,
  mode: 'paper',
  strategies: [],
  positions: [],
  totals: { realised: 0, unrealised: 0 },
  orders: { working: [], recent: [] },
  marketData: { status: 'ok', staleTokens: [], rejectedTokens: [], quoteTokens: 0 },
  killSwitch: { tripped: false, flattenOnKill: true },
  controls: [],
};
// Only the read side is reached here.
const controls = { changes$: new Subject<void>(), status: () => status } as unknown as BotControls;

const config = (dashboard: string) =>
  parseConfig(`mode: paper\nstrategies: [{ id: a, module: x.ts }]\n${dashboard}`, 'c.yaml', {});

/** A logger whose lines are kept as text. */
function capture() {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (l: string) => lines.push(l) });
  return { logger, lines };
}

let running: RunningDashboard | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe('serveDashboard', () => {
  it('makes a token when none is configured, prints its URL once, and never logs it', async () => {
    const { logger, lines } = capture();
    const printed: string[] = [];
    running = await serveDashboard({
      controls,
      config: config('dashboard: { port: 0, token: "" }'),
      logger,
      print: (l) => printed.push(l),
    });
    const dash = running as RunningDashboard;
    expect(dash.generated).toBe(true);
    expect(dash.token.length).toBeGreaterThanOrEqual(32);
    expect(printed).toEqual([expect.stringContaining(`${dash.url}/?token=${dash.token}`)]);
    expect(dash.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines.join('')).not.toContain(dash.token);
    expect((await fetch(`${dash.url}/api/status`)).status).toBe(401);
    const ok = await fetch(`${dash.url}/api/status`, {
      headers: { authorization: `Bearer ${dash.token}` },
    });
    expect(ok.status).toBe(200);
  });

  it('keeps a configured token out of what it prints', async () => {
    const printed: string[] = [];
    running = await serveDashboard({
      controls,
      config: config('dashboard: { port: 0, token: configured-secret-token }'),
      logger: capture().logger,
      print: (l) => printed.push(l),
    });
    expect(running?.generated).toBe(false);
    expect(printed.join('')).not.toContain('configured-secret-token');
  });

  it('serves nothing without the block, and logs a port in use without throwing', async () => {
    expect(
      await serveDashboard({ controls, config: config(''), logger: capture().logger }),
    ).toBeUndefined();
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as { port: number }).port;
    const { logger, lines } = capture();
    try {
      const none = await serveDashboard({
        controls,
        config: config(`dashboard: { port: ${port}, token: t0k3n-in-use }`),
        logger,
        print: () => undefined,
      });
      expect(none).toBeUndefined();
      expect(lines.join('')).toContain('the dashboard could not start');
      expect(lines.join('')).not.toContain('t0k3n-in-use');
    } finally {
      taken.close();
    }
  });
});
