import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkConfigPaths } from './check-config-paths.ts';
import { ConfigError } from './config-error.ts';
import { parseConfig } from './load-config.ts';

const strategies = 'strategies:\n  - id: a\n    module: a.ts\n';

/** A config file in a fresh folder; the config is parsed as if read from there. */
function setup(body: string) {
  const dir = mkdtempSync(join(tmpdir(), 'tr-paths-'));
  const file = join(dir, 'conf', 'bot.yaml');
  mkdirSync(join(dir, 'conf'));
  return { dir, file, config: () => parseConfig(`${strategies}${body}`, file, {}) };
}

async function problemsOf(body: string, prepare: (dir: string) => void = () => {}) {
  const s = setup(body);
  prepare(s.dir);
  try {
    await checkConfigPaths(s.config(), s.file);
    return [];
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message.startsWith(`${s.file}: `)).toBe(true);
    return (err as ConfigError).problems;
  }
}

describe('checkConfigPaths', () => {
  it('accepts a state folder that does not exist yet, without creating it', async () => {
    expect(await problemsOf('mode: paper\nstate: { dir: ../var/state }\n')).toEqual([]);
  });

  it('rejects a state.dir that is a file', async () => {
    const problems = await problemsOf('mode: paper\nstate: { dir: ../taken }\n', (dir) =>
      writeFileSync(join(dir, 'taken'), 'x'),
    );
    expect(problems).toEqual([
      { path: 'state.dir', message: expect.stringMatching(/taken exists and is not a folder$/) },
    ]);
  });

  it('rejects a state.dir below a file', async () => {
    const problems = await problemsOf('mode: paper\nstate: { dir: ../taken/state }\n', (dir) =>
      writeFileSync(join(dir, 'taken'), 'x'),
    );
    expect(problems).toEqual([
      {
        path: 'state.dir',
        message: expect.stringMatching(/^cannot create .*taken\/state: .*taken is not a folder$/),
      },
    ]);
  });

  it('checks the recording folder only when recording is enabled', async () => {
    const file = (dir: string) => writeFileSync(join(dir, 'rec'), 'x');
    expect(await problemsOf('mode: paper\nrecording: { dir: ../rec }\n', file)).toEqual([]);
    expect(
      (await problemsOf('mode: paper\nrecording: { enabled: true, dir: ../rec }\n', file)).map(
        (p) => p.path,
      ),
    ).toEqual(['recording.dir']);
  });

  it('rejects an unreadable token file when it is the only source of the token', async () => {
    const live =
      'mode: live\nbroker: { baseUrl: "https://api.tiqs.trading", appId: a, tokenFile: ../token }\n';
    expect((await problemsOf(live)).map((p) => p.path)).toEqual(['broker.tokenFile']);
    expect(await problemsOf(live, (dir) => writeFileSync(join(dir, 'token'), 't\n'))).toEqual([]);
  });

  it('refuses to start live beside the journal an earlier path rule left elsewhere', async () => {
    const body =
      'mode: live\nbroker: { baseUrl: "https://api.tiqs.trading", appId: a, token: t }\nstate: { dir: var/state }\n';
    // The old rule put var/state next to the config's folder, not in it.
    const problems = await problemsOf(body, (dir) => {
      mkdirSync(join(dir, 'var', 'state'), { recursive: true });
      writeFileSync(join(dir, 'var', 'state', 'journal.sqlite'), '');
    });
    expect(problems).toEqual([
      { path: 'state.dir', message: expect.stringContaining('earlier runs kept one at') },
    ]);
    expect(await problemsOf(body)).toEqual([]);
  });
});
