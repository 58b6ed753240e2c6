import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../src/sim/index.ts';
import { runCli } from './run-cli.ts';

const fixture = join(process.cwd(), 'test/fixtures/strategies/names-instrument.ts');

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

function configFile(params: string, extra = '', broker = 'broker:\n  baseUrl: embedded\n') {
  const dir = mkdtempSync(join(tmpdir(), 'tr-validate-'));
  const file = join(dir, 'bot.yaml');
  writeFileSync(
    file,
    `mode: paper\n${broker}strategies:\n  - id: a\n    module: ${fixture}\n    params: ${params}\nstate:\n  dir: state\n${extra}`,
  );
  return { dir, file };
}

describe('tiqs-runner validate: instruments', () => {
  it('accepts a token and symbol that match the master', async () => {
    const { file } = configFile('{ token: 2885, symbol: RELIANCE-EQ, hedgeToken: 26000 }');
    const r = await runCli('validate', '--config', file);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(`${file}: ok`);
    expect(r.stdout).toContain('instruments checked against the master of');
    expect(r.code).toBe(0);
  });

  it('exits 3 on a token and symbol that do not belong together, naming both', async () => {
    const { file } = configFile('{ token: 2885, symbol: SBIN-EQ }');
    const r = await runCli('validate', '--config', file);
    expect(r.stderr).toBe(
      `${file}: strategies[0].params.symbol: token 2885 is RELIANCE-EQ on NSE in the instrument master, not "SBIN-EQ"\n`,
    );
    expect(r.code).toBe(3);
  });

  it('exits 3 on unknown tokens in params (defaults included) and in recording.instruments', async () => {
    const { file } = configFile(
      '{ hedgeToken: 424242 }',
      'recording:\n  instruments:\n    - { token: 3045 }\n    - { token: 777777 }\n',
    );
    const r = await runCli('validate', '--config', file);
    expect(r.stderr).toContain(
      `${file}: strategies[0].params.hedgeToken: token 424242 is not in the instrument master`,
    );
    expect(r.stderr).toContain(
      `${file}: recording.instruments[1].token: token 777777 is not in the instrument master`,
    );
    expect(r.stderr).not.toContain('recording.instruments[0]');
    expect(r.code).toBe(3);
  });

  it("checks against a service's master over HTTP and caches it in state.dir", async () => {
    sim = await startSimulator({});
    const { dir, file } = configFile(
      '{ token: 2885, symbol: INFY-EQ }',
      '',
      `broker:\n  baseUrl: ${sim.url}\n  appId: sim-app\n  token: sim-token\n`,
    );
    const r = await runCli('validate', '--config', file);
    expect(r.stderr).toContain(
      'token 2885 is RELIANCE-EQ on NSE in the instrument master, not "INFY-EQ"',
    );
    expect(r.code).toBe(3);
    expect(sim.stats.count('instrumentMaster')).toBe(1);
    expect(readdirSync(join(dir, 'state')).some((f) => f.startsWith('instruments-'))).toBe(true);
  });

  it('says so, and passes, when the service cannot be reached', async () => {
    const { file } = configFile(
      '{ token: 2885, symbol: SBIN-EQ }',
      '',
      'broker:\n  baseUrl: http://127.0.0.1:9\n  appId: a\n  token: t\n',
    );
    const r = await runCli('validate', '--config', file);
    expect(r.stdout).toContain('instruments not checked (no instrument master: ');
    expect(r.code).toBe(0);
  });
});
