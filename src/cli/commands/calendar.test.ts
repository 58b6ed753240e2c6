import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../main.ts';
import { type CalendarReport, calendarCommand } from './calendar.ts';

const FIXTURE = fileURLToPath(
  new URL('../../../test/fixtures/holidays-2026.json', import.meta.url),
);

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    err += String(chunk);
    return true;
  });
  try {
    const code = await main(['node', 'tiqs-runner', 'calendar', ...args]);
    return { code, out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('tiqs-runner calendar --json', () => {
  it.each([
    {
      what: 'ordinary weekday, open',
      at: '2026-11-20T10:00:00+05:30',
      expected: {
        open: true,
        phase: 'open',
        nextOpen: '2026-11-23T09:15:00.000+05:30',
        nextClose: '2026-11-20T15:30:00.000+05:30',
      },
    },
    {
      what: 'pre-open',
      at: '2026-11-20T03:35:00Z',
      expected: {
        open: false,
        phase: 'pre-open',
        nextOpen: '2026-11-20T09:15:00.000+05:30',
        nextClose: '2026-11-20T15:30:00.000+05:30',
      },
    },
    {
      what: 'Muhurat Sunday during the session',
      at: '2026-11-08T18:30+05:30',
      expected: {
        open: true,
        phase: 'open',
        holiday: 'Diwali Laxmi Pujan',
        sessions: [
          {
            start: '2026-11-08T18:00:00.000+05:30',
            end: '2026-11-08T19:00:00.000+05:30',
            kind: 'special',
            label: 'Diwali Laxmi Pujan',
          },
        ],
        nextOpen: '2026-11-09T09:15:00.000+05:30',
        nextClose: '2026-11-08T19:00:00.000+05:30',
      },
    },
    {
      what: 'weekday holiday',
      at: '2026-12-25T10:00:00+05:30',
      expected: {
        open: false,
        phase: 'closed',
        tradingDay: false,
        sessions: [],
        nextOpen: '2026-12-28T09:15:00.000+05:30',
      },
    },
  ])('$what', async ({ at, expected }) => {
    const { code, out, err } = await run(['--holidays', FIXTURE, '--at', at, '--json']);
    expect(err).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(out) as CalendarReport;
    expect(report).toMatchObject({ exchange: 'NSE', source: 'file', covered: true, ...expected });
  });

  it('notes when the next open falls in a year the data does not cover', async () => {
    const { out } = await run(['--holidays', FIXTURE, '--at', '2026-12-31T16:00+05:30', '--json']);
    const report = JSON.parse(out) as CalendarReport;
    expect(report.nextOpen).toBe('2027-01-01T09:15:00.000+05:30');
    expect(report.notes).toEqual([
      'holiday data covers 2026 only: the next open and the next close assume the regular weekly schedule with no holidays',
    ]);
  });

  it('prints a human summary without --json', async () => {
    const { code, out } = await run(['--holidays', FIXTURE, '--at', '2026-11-08T12:00:00Z']);
    expect(code).toBe(0);
    expect(out).toContain('Market:     CLOSED  (phase: closed)');
    expect(out).toContain('18:00–19:00 IST  special (Diwali Laxmi Pujan)');
    expect(out).toContain('Next open:  Sun 08 Nov 2026 18:00 IST  (2026-11-08T18:00:00.000+05:30)');
  });

  it.each([
    {
      what: 'missing file',
      args: ['--holidays', '/nonexistent/h.json'],
      message: /cannot read holidays file \/nonexistent\/h\.json/,
    },
    {
      what: 'bad instant',
      args: ['--holidays', FIXTURE, '--at', 'tomorrow'],
      message: /invalid instant "tomorrow"/,
    },
  ])('fails clearly on a $what', async ({ args, message }) => {
    const { code, err } = await run(args);
    expect(code).toBe(1);
    expect(err).toMatch(message);
  });
});

describe('tiqs-runner calendar against the service', () => {
  const env = {
    TIQS_APP_ID: 'app-1',
    TIQS_ACCESS_TOKEN: 'secret-token-xyz',
    TIQS_BASE_URL: 'http://sim.local:8080/',
  };
  const holidays = { holidays: { '25-12-2026': 'Christmas' }, specialTradingDays: {} };

  async function runWith(fetchImpl: typeof fetch, args: string[] = []): Promise<string> {
    let out = '';
    await calendarCommand({ fetch: fetchImpl, env, write: (t) => (out += t) }).parseAsync(
      ['--at', '2026-12-24T16:00+05:30', '--json', ...args],
      { from: 'user' },
    );
    return out;
  }

  it('GETs /info/holidays with appId and token headers and validates the body', async () => {
    const fake = vi.fn<typeof fetch>(async () =>
      Response.json({ status: 'success', data: holidays }),
    );
    const report = JSON.parse(await runWith(fake)) as CalendarReport;
    expect(report).toMatchObject({ source: 'service', nextOpen: '2026-12-28T09:15:00.000+05:30' });
    const request = fake.mock.calls[0]?.[0] as Request;
    expect(request.url).toBe('http://sim.local:8080/info/holidays');
    expect(request.headers.get('appId')).toBe('app-1');
    expect(request.headers.get('token')).toBe('secret-token-xyz');
  });

  it('--base-url wins over the environment', async () => {
    const fake = vi.fn<typeof fetch>(async () =>
      Response.json({ status: 'success', data: holidays }),
    );
    await runWith(fake, ['--base-url', 'http://127.0.0.1:9']);
    const request = fake.mock.calls[0]?.[0] as Request | undefined;
    expect(request?.url).toBe('http://127.0.0.1:9/info/holidays');
  });

  it('refuses a base URL that carries a secret, without showing it or asking anyone', async () => {
    const fake = vi.fn<typeof fetch>();
    const failing = runWith(fake, ['--base-url', 'https://me:hunter2-pw@sim.local:8080']);
    await expect(failing).rejects.toThrow(
      /^--base-url or TIQS_BASE_URL: expected a plain service URL without a user name, password/,
    );
    const error: unknown = await failing.catch((e: unknown) => e);
    expect(error instanceof Error && error.message).not.toContain('hunter2');
    expect(fake).not.toHaveBeenCalled();
  });

  it.each([
    {
      what: 'an HTTP error with the failure envelope',
      fetch: async () =>
        Response.json(
          { status: 'error', message: 'Invalid session', errorCode: 'Unauthorized' },
          { status: 401 },
        ),
      message:
        'could not get the holidays from http://sim.local:8080: holidays: session expired or invalid (HTTP 401)',
    },
    {
      what: 'a network failure',
      fetch: async () => {
        throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') });
      },
      message: 'could not get the holidays from http://sim.local:8080: holidays: network failure',
    },
    {
      what: 'an unexpected body',
      fetch: async () => Response.json({ status: 'success', data: { holidays: [] } }),
      message: /invalid response at data\.holidays/,
    },
  ])('fails clearly on $what, never showing the token', async ({ fetch: impl, message }) => {
    const failing = runWith(impl as typeof fetch);
    await expect(failing).rejects.toThrow(message);
    const error: unknown = await failing.catch((e: unknown) => e);
    expect(error instanceof Error && error.message).not.toContain('secret-token-xyz');
  });

  it("--config with the embedded broker reads the simulator's calendar", async () => {
    let out = '';
    await calendarCommand({ env: {}, write: (t) => (out += t) }).parseAsync(
      ['--config', 'config/paper.yaml', '--at', '2026-11-08T18:30+05:30', '--json'],
      { from: 'user' },
    );
    expect(JSON.parse(out)).toMatchObject({ open: true, phase: 'open' });
  });

  it('asks for credentials when they are missing', async () => {
    const cmd = calendarCommand({ env: {}, write: () => {} });
    await expect(
      cmd.parseAsync(['--at', '2026-12-24T16:00+05:30'], { from: 'user' }),
    ).rejects.toThrow(
      'set TIQS_APP_ID and TIQS_ACCESS_TOKEN (or pass --config F) to ask the service at https://api.tiqs.trading, or pass --holidays FILE',
    );
  });
});
