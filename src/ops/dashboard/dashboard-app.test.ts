import { Subject } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { quietStatus as status } from '../../../test/helpers/bot-status.ts';
import type { BotStatus, ControlRecord } from '../../runtime/bot-controls.ts';
import { dashboardApp } from './dashboard-app.ts';
import { type DashboardControls, DashboardFeed } from './dashboard-feed.ts';

const TOKEN = 'test-token-0123456789';

const record = (action: ControlRecord['action'], who: string, outcome: ControlRecord['outcome']) =>
  ({ at: 0, who, action, outcome, detail: '' }) satisfies ControlRecord;

function setUp() {
  const changes = new Subject<void>();
  let now = Date.parse('2026-11-20T09:20:00+05:30');
  const controls = {
    changes$: changes.asObservable(),
    status: vi.fn(() => status(now, 1_000)),
    pauseStrategy: vi.fn((id: string, who: string) =>
      record('pause', who, id === 'sma' ? 'done' : 'refused'),
    ),
    resumeStrategy: vi.fn((_id: string, who: string) => record('resume', who, 'done')),
    squareOff: vi.fn(async (_t: number, who: string) => record('squareOff', who, 'done')),
    squareOffAll: vi.fn(async (who: string) => record('squareOffAll', who, 'done')),
    tripKillSwitch: vi.fn((who: string) => record('killSwitch', who, 'done')),
    brokerPositions: vi.fn(async () => []),
  } satisfies DashboardControls;
  const feed = new DashboardFeed(controls);
  const app = dashboardApp({
    controls,
    feed,
    token: TOKEN,
    extraRoutes: (a) => a.get('/metrics', (c) => c.text('tiqs_runner_up 1\n')),
  });
  const bearer = { authorization: `Bearer ${TOKEN}` };
  const advance = (ms: number) => {
    now += ms;
  };
  return { app, controls, feed, changes, bearer, advance };
}

describe('dashboard app', () => {
  it('answers 401 to every request without the token, page and API alike', async () => {
    const { app, controls } = setUp();
    const wrong = { authorization: 'Bearer nope' };
    for (const [method, path, headers] of [
      ['GET', '/', {}],
      ['GET', '/api/status', {}],
      ['GET', '/api/events', wrong],
      ['GET', '/metrics', {}],
      ['GET', '/?token=nope', {}],
      ['POST', '/api/square-off-all', wrong],
      ['POST', '/api/kill-switch', { cookie: `tiqs_dashboard=${TOKEN}` }],
    ] as const) {
      const res = await app.request(path, { method, headers });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(await res.text()).not.toContain(TOKEN);
    }
    expect(controls.squareOffAll).not.toHaveBeenCalled();
    expect(controls.tripKillSwitch).not.toHaveBeenCalled();
  });

  it('sets an HttpOnly SameSite=Strict cookie for /?token= and redirects to /', async () => {
    const { app } = setUp();
    const res = await app.request(`/?token=${TOKEN}`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    // The cookie holds a digest, not the token.
    expect(cookie).not.toContain(TOKEN);
    const pair = cookie.split(';')[0] ?? '';
    const page = await app.request('/', { headers: { cookie: pair } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Square off all');
    expect(html).toContain('LightweightCharts');
    const api = await app.request('/api/status', { headers: { cookie: pair } });
    expect(((await api.json()) as BotStatus).totals.realised).toBe(1_000);
  });

  it("keeps two bots' dashboards on one host signed in side by side (a cookie per token)", async () => {
    // A browser's cookies ignore the port: with one cookie name, opening the second bot's
    // dashboard replaced the first's cookie and signed the browser out of it.
    // Checked to fail: with the fixed name 'tiqs_dashboard' the first request below was 401.
    const a = setUp().app;
    const other = 'other-token-9876543210';
    const b = dashboardApp({ ...setUp(), token: other });
    const jar = new Map<string, string>();
    const signIn = async (app: typeof a, url: string) => {
      const set = (await app.request(url)).headers.get('set-cookie') ?? '';
      const [name, value] = (set.split(';')[0] ?? '').split('=');
      jar.set(name ?? '', value ?? '');
    };
    await signIn(a, `http://127.0.0.1:8780/?token=${TOKEN}`);
    await signIn(b, `http://127.0.0.1:8781/?token=${other}`);
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const statusOf = async (app: typeof a, url: string) =>
      (await app.request(url, { headers: { cookie } })).status;
    expect(await statusOf(a, 'http://127.0.0.1:8780/api/status')).toBe(200);
    expect(await statusOf(b, 'http://127.0.0.1:8781/api/status')).toBe(200);
    expect(jar.size).toBe(2);
  });

  it('refuses a cookie-only control from another origin (CSRF), but not a bearer one', async () => {
    const { app, controls, bearer } = setUp();
    const set = (await app.request(`/?token=${TOKEN}`)).headers.get('set-cookie') ?? '';
    const cookie = set.split(';')[0] ?? '';
    const post = (headers: Record<string, string>) =>
      app.request('/api/square-off-all', { method: 'POST', headers });
    // A page on another port of the same host is same-site: its form carries the cookie.
    expect((await post({ cookie, origin: 'http://127.0.0.1:1' })).status).toBe(403);
    expect((await post({ cookie, 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect((await post({ cookie })).status).toBe(403);
    // The Fetch metadata wins over a forged-looking Origin check.
    const own = { cookie, 'sec-fetch-site': 'same-site', origin: 'http://localhost' };
    expect((await post(own)).status).toBe(403);
    expect(controls.squareOffAll).not.toHaveBeenCalled();
    // The dashboard's own page: same-origin, or no Fetch metadata and our own Origin.
    expect((await post({ cookie, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await post({ cookie, origin: 'http://localhost' })).status).toBe(200);
    // A program with the bearer sends neither header.
    expect((await post(bearer)).status).toBe(200);
    // Reading needs no origin.
    expect((await app.request('/api/status', { headers: { cookie } })).status).toBe(200);
    expect(controls.squareOffAll).toHaveBeenCalledTimes(3);
  });

  it('runs the controls for a bearer token, naming the dashboard as who asked', async () => {
    const { app, controls, bearer } = setUp();
    const post = (path: string, body?: string) =>
      app.request(path, {
        method: 'POST',
        headers: bearer,
        ...(body === undefined ? {} : { body }),
      });
    expect((await post('/api/square-off-all')).status).toBe(200);
    expect(controls.squareOffAll).toHaveBeenCalledWith('dashboard');
    expect((await post('/api/strategies/sma/pause')).status).toBe(200);
    expect((await post('/api/strategies/nope/pause')).status).toBe(404);
    expect((await post('/api/positions/3045/square-off', '{"product":"I"}')).status).toBe(200);
    expect(controls.squareOff).toHaveBeenCalledWith(3045, 'dashboard', 'I');
    expect((await post('/api/positions/3045/square-off', '{"product":"X"}')).status).toBe(400);
    expect((await post('/api/positions/3045/square-off', '{')).status).toBe(400);
    expect((await post('/api/kill-switch')).status).toBe(200);
    expect(controls.tripKillSwitch).toHaveBeenCalledWith('dashboard');
    expect((await app.request('/metrics', { headers: bearer })).status).toBe(200);
  });

  it('pushes a snapshot at once over SSE, with the PnL curve, and ends when the feed closes', async () => {
    const { app, feed, changes, bearer, advance } = setUp();
    advance(10_000);
    // A change (a fill, a mark) makes a new snapshot at once: the throttle leads.
    changes.next();
    const res = await app.request('/api/events', { headers: bearer });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toMatch(/^event: status\n/m);
    const data = JSON.parse(/^data: (.*)$/m.exec(first)?.[1] ?? '{}') as {
      pnlCurve: { time: number; value: number }[];
    };
    expect(data.pnlCurve.map((p) => p.value)).toEqual([1_000, 1_000]);
    // Later pushes carry the curve's end, not the whole curve.
    advance(10_000);
    changes.next();
    const next = new TextDecoder().decode((await reader.read()).value);
    const update = JSON.parse(/^data: (.*)$/m.exec(next)?.[1] ?? '{}') as Record<string, unknown>;
    expect(update.pnlCurve).toBeUndefined();
    expect(update.pnl).toEqual({
      start: data.pnlCurve[0]?.time,
      count: 3,
      last: [
        { time: expect.any(Number), value: 1_000 },
        { time: expect.any(Number), value: 1_000 },
      ],
    });
    feed.close();
    let done = false;
    for (let i = 0; i < 10 && !done; i++) done = (await reader.read()).done;
    expect(done).toBe(true);
  });
});
