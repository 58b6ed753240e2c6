import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { Credentials } from '../api/tiqs-client.ts';
import { loadConfig } from '../config/load-config.ts';
import { CredentialReload } from './credential-reload.ts';

const OLD = 'old-token-value';
const NEW = 'new-token-value';
const strategy = resolve('test/fixtures/strategies/buy-once.ts');
let open: CredentialReload | undefined;

afterEach(() => {
  open?.close();
  open = undefined;
});

/** A bot's config in a temp folder: its token from the environment, maybe a token file. */
async function setUp(broker: string) {
  const dir = mkdtempSync(join(tmpdir(), 'tr-reload-'));
  const configFile = join(dir, 'bot.yaml');
  writeFileSync(
    configFile,
    `mode: paper\nbroker: { baseUrl: 'http://127.0.0.1:9', ${broker} }\nstrategies:\n  - { id: s, module: ${strategy} }\n`,
  );
  const env = { TR_TEST_TOKEN: OLD };
  const config = await loadConfig(configFile, env);
  const handed: Credentials[] = [];
  const lines: Array<{ msg: string; level: number }> = [];
  const logger = pino({}, { write: (l: string) => lines.push(JSON.parse(l)) });
  const envFile = join(dir, '.env');
  const reload = CredentialReload.start({
    configFile,
    config,
    logger,
    setCredentials: (c) => handed.push(c),
    envFile,
  });
  open = reload;
  return { dir, envFile, reload, handed, lines };
}

describe('CredentialReload', () => {
  it('on SIGHUP hands over the env file’s new token once, and never logs it', async () => {
    process.env.TR_TEST_TOKEN = OLD;
    try {
      const t = await setUp("appId: app, token: '${TR_TEST_TOKEN}'");
      await t.reload.reloadConfig();
      expect(t.handed).toEqual([]);
      expect(t.lines.at(-1)?.msg).toMatch(/token is unchanged/);
      writeFileSync(t.envFile, `TR_TEST_TOKEN=${NEW}\n`);
      await t.reload.reloadConfig();
      expect(t.handed).toEqual([{ appId: 'app', token: NEW }]);
      expect(t.lines.at(-1)?.msg).toBe('credentials reloaded on SIGHUP');
      // The same token again is not handed over twice.
      await t.reload.reloadConfig();
      expect(t.handed).toHaveLength(1);
      expect(JSON.stringify(t.lines)).not.toContain(NEW);
    } finally {
      delete process.env.TR_TEST_TOKEN;
    }
  });

  it('listens for SIGHUP while started, and not after close', async () => {
    const before = process.listenerCount('SIGHUP');
    const t = await setUp('appId: app, token: fixed');
    expect(process.listenerCount('SIGHUP')).toBe(before + 1);
    t.reload.close();
    expect(process.listenerCount('SIGHUP')).toBe(before);
  });

  it('says so when the config has no credentials, or no longer loads', async () => {
    // A token file, but no token in the config: SIGHUP has nothing to hand over.
    const t = await setUp(`appId: app, tokenFile: ${join(tmpdir(), 'tr-reload-none.txt')}`);
    await t.reload.reloadConfig();
    expect(t.lines.at(-1)?.msg).toBe('SIGHUP: the config has no appId/token to reload');
    writeFileSync(join(t.dir, 'bot.yaml'), 'mode: nonsense\n');
    await t.reload.reloadConfig();
    expect(t.lines.at(-1)).toMatchObject({ msg: 'SIGHUP: could not reload the config', level: 50 });
    expect(t.handed).toEqual([]);
  });

  it('hands over the token file’s first line when it changes; an empty file is ignored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tr-reload-file-'));
    const tokenFile = join(dir, 'token.txt');
    writeFileSync(tokenFile, '');
    const t = await setUp(`appId: app, tokenFile: ${tokenFile}`);
    await t.reload.reloadTokenFile();
    expect(t.handed).toEqual([]);
    writeFileSync(tokenFile, `${NEW}\nignored\n`);
    await t.reload.reloadTokenFile();
    expect(t.handed).toEqual([{ appId: 'app', token: NEW }]);
    expect(t.lines.at(-1)).toMatchObject({ msg: 'token file changed: credentials reloaded' });
    expect(JSON.stringify(t.lines)).not.toContain(NEW);
  });

  it('does not hand over the token in use again when the file is rewritten unchanged', async () => {
    // Checked to fail: without the comparison with the token in use, the rewrite hands
    // NEW over a second time (a paused bot would resume only to be refused again).
    const dir = mkdtempSync(join(tmpdir(), 'tr-reload-same-'));
    const tokenFile = join(dir, 'token.txt');
    writeFileSync(tokenFile, `${NEW}\n`);
    const t = await setUp(`appId: app, tokenFile: ${tokenFile}`);
    await t.reload.reloadTokenFile();
    writeFileSync(tokenFile, `${NEW}\n`);
    await t.reload.reloadTokenFile();
    expect(t.handed).toEqual([{ appId: 'app', token: NEW }]);
  });
});
