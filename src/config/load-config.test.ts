import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.ts';
import { loadConfig, parseConfig } from './load-config.ts';

const minimal = `
mode: paper
strategies:
  - id: sma
    module: strategies/sma-crossover.ts
`;

function problemsOf(text: string, env: Record<string, string> = {}) {
  try {
    parseConfig(text, 'config/test.yaml', env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('parseConfig', () => {
  it('fills defaults for a minimal paper config', () => {
    const c = parseConfig(minimal, 'x.yaml', {});
    expect(c.broker.baseUrl).toBe('embedded');
    expect(c.marketData.intervalMs).toBe(1_000);
    expect(c.risk.flattenOnKill).toBe(true);
    expect(c.strategies[0]?.params).toEqual({});
    expect(c.logging.level).toBe('info');
  });

  it('substitutes ${ENV} and ${ENV:-default} after parsing', () => {
    const c = parseConfig(
      `mode: live
broker:
  baseUrl: https://api.tiqs.trading
  appId: \${APP}
  token: "\${TOK}"
logging:
  level: \${LEVEL:-warn}
strategies: [{ id: a, module: a.ts }]`,
      'x.yaml',
      { APP: 'my-app', TOK: 'x: [1, 2]' },
    );
    expect(c.broker.appId).toBe('my-app');
    expect(c.broker.token).toBe('x: [1, 2]');
    expect(c.logging.level).toBe('warn');
  });

  it.each([
    ['a wrong mode', 'mode: fast\nstrategies: [{id: a, module: a.ts}]', 'mode'],
    ['a bad interval', `${minimal}marketData:\n  intervalMs: 5\n`, 'marketData.intervalMs'],
    [
      'a bad strategy id',
      'mode: paper\nstrategies: [{id: "Bad Id", module: a.ts}]',
      'strategies[0].id',
    ],
    ['no strategies', 'mode: paper\nstrategies: []', 'strategies'],
    ['a bad url', `${minimal}broker:\n  baseUrl: ftp://x\n`, 'broker.baseUrl'],
    [
      'duplicate ids',
      'mode: paper\nstrategies: [{id: a, module: a.ts}, {id: a, module: b.ts}]',
      'strategies[1].id',
    ],
    [
      'live without token',
      'mode: live\nbroker: {baseUrl: "https://api.tiqs.trading", appId: x}\nstrategies: [{id: a, module: a.ts}]',
      'broker.token',
    ],
    [
      'an unset env var',
      'mode: live\nbroker: {baseUrl: "https://api.tiqs.trading", appId: x, token: "${NOPE}"}\nstrategies: [{id: a, module: a.ts}]',
      'broker.token',
    ],
    [
      // Checked to fail: without the rule the config loads, and only the kernel refuses it (exit 1).
      'a scaled market clock against the real service',
      'mode: live\nbroker: {baseUrl: "https://api.tiqs.trading", appId: x, token: t, sim: {speed: 60}}\nstrategies: [{id: a, module: a.ts}]',
      'broker.sim',
    ],
  ])('reports %s at its field path', (_what, text, path) => {
    expect(problemsOf(text).map((p) => p.path)).toContain(path);
  });

  it('reports YAML syntax errors with line and column, naming the file', () => {
    const err = (() => {
      try {
        parseConfig('mode: paper\nstrategies: [\n  - : :\n', 'config/broken.yaml', {});
      } catch (e) {
        return e as Error;
      }
      return undefined;
    })();
    expect(err?.message).toMatch(/^config\/broken\.yaml: YAML syntax at line \d+, column \d+/);
  });

  it('never echoes an env value it could not use', () => {
    const problems = problemsOf(
      'mode: paper\nbroker: {baseUrl: "${URL}"}\nstrategies: [{id: a, module: a.ts}]',
      {
        URL: 'not-a-url-secretish',
      },
    );
    expect(JSON.stringify(problems)).not.toContain('secretish');
  });
});

describe('loadConfig', () => {
  it('allows a scaled market clock against a loopback simulator', () => {
    const config = parseConfig(
      'mode: live\nbroker: {baseUrl: "http://127.0.0.1:9", appId: x, token: t, sim: {speed: 60}}\nstrategies: [{id: a, module: a.ts}]',
      '/x/bot.yaml',
      {},
    );
    expect(config.broker.sim.speed).toBe(60);
  });

  it('names a missing file', async () => {
    await expect(loadConfig('config/does-not-exist.yaml')).rejects.toThrow(
      'config/does-not-exist.yaml: file not found',
    );
  });
});
