import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

const root = process.cwd();
const sma = resolve('strategies/sma-crossover.ts');

/** A config file in a fresh folder outside the project. */
function configFile(text: string): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tr-cfg-'));
  const file = join(dir, 'bot.yaml');
  writeFileSync(file, text);
  return { dir, file };
}

/**
 * Runs the CLI as a real process (Node's loader, as a user runs it). Every wait is
 * bounded: a process still alive after `limitMs` is killed and reported with code null.
 */
function cli(args: string[], until?: string, limitMs = 30_000) {
  const child = spawn(process.execPath, [join(root, 'bin/tiqs-runner.js'), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: tmpdir(),
  });
  let stdout = '';
  let stderr = '';
  let signalled = false;
  const limit = setTimeout(() => child.kill('SIGKILL'), limitMs);
  child.stdout.on('data', (d) => {
    stdout += String(d);
    if (until !== undefined && !signalled && stdout.includes(until)) {
      signalled = true;
      child.kill('SIGTERM');
    }
  });
  child.stderr.on('data', (d) => {
    stderr += String(d);
  });
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) =>
    child.on('exit', (code) => {
      clearTimeout(limit);
      done({ code, stdout, stderr });
    }),
  );
}

const paper = (rest: string, params = '{ fast: 3, slow: 8 }') =>
  `mode: paper\nstrategies:\n  - id: sma\n    module: ${sma}\n    params: ${params}\n${rest}`;

describe('validate on bad configs: exit 3 naming file, path and the nearest key', () => {
  it.each([
    [
      'a misspelled risk key',
      paper('risk:\n  dailyMaxLos: 2500\n'),
      'risk.dailyMaxLos: unknown key "dailyMaxLos"; did you mean "dailyMaxLoss"?',
    ],
    [
      'a misspelled section',
      paper('marketdata:\n  intervalMs: 1000\n'),
      'marketdata: unknown key "marketdata"; did you mean "marketData"?',
    ],
    [
      'a misspelled strategy key',
      `mode: paper\nstrategies:\n  - id: sma\n    module: ${sma}\n    parms: { fast: 3 }\n`,
      'strategies[0].parms: unknown key "parms"; did you mean "params"?',
    ],
    [
      'a misspelled strategy param',
      paper('', '{ fastt: 3 }'),
      `strategies[0] (strategy "sma", ${sma}): params.fastt: unknown key "fastt"; did you mean "fast"?`,
    ],
    [
      'the removed shutdown key',
      paper('execution:\n  cancelOpenOrdersOnShutdown: true\n'),
      'execution.cancelOpenOrdersOnShutdown: removed; use execution.onShutdown',
    ],
    [
      'an unclosed placeholder',
      'mode: live\nbroker:\n  baseUrl: https://api.tiqs.trading\n  appId: a\n  token: "${TIQS_ACCESS_TOKEN"\n' +
        `strategies:\n  - id: sma\n    module: ${sma}\n`,
      'broker.token: malformed placeholder "${TIQS_ACCESS_TOKEN"',
    ],
    [
      'a bad placeholder name',
      paper('logging:\n  level: "${1BAD-NAME}"\n'),
      'logging.level: malformed placeholder "${1BAD-NAME}"',
    ],
    ['a state.dir that is a file', paper('state:\n  dir: bot.yaml\n'), 'state.dir: '],
  ])('%s', async (_what, text, message) => {
    const { file } = configFile(text);
    const r = await runCli('validate', '--config', file);
    expect(r.stderr).toContain(`${file}: ${message}`);
    expect(r.code).toBe(3);
  });

  it('accepts a whole-value placeholder where the schema wants a number or a boolean', async () => {
    const { file } = configFile(
      paper(
        'broker:\n  sim:\n    speed: ${SIM_SPEED_UNSET_X:-30}\nrisk:\n  flattenOnKill: ${FLATTEN_UNSET_X:-false}\n',
      ),
    );
    const r = await runCli('validate', '--config', file);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});

describe('run on bad configs: exit 3 before anything starts, never a hang', () => {
  it('exits 3 promptly when state.dir is a file', async () => {
    const { dir, file } = configFile(paper('state:\n  dir: taken\nlogging:\n  format: json\n'));
    writeFileSync(join(dir, 'taken'), 'not a folder');
    const r = await cli(['run', '--config', file], undefined, 20_000);
    expect(r.stderr).toContain(
      `${file}: state.dir: ${join(dir, 'taken')} exists and is not a folder`,
    );
    expect(r.stdout).not.toContain('embedded simulator started');
    expect(r.code).toBe(3);
  });

  it('exits 3 naming the file on a YAML alias bomb', async () => {
    const rows = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (const [prev, next] of [
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'd'],
      ['d', 'e'],
      ['e', 'f'],
      ['f', 'g'],
    ])
      rows.push(`${next}: &${next} [${Array(9).fill(`*${prev}`).join(', ')}]`);
    const { file } = configFile(paper(`${rows.join('\n')}\n`));
    const r = await cli(['run', '--config', file], undefined, 20_000);
    expect(r.stderr).toContain(`${file}: YAML aliases expand too much`);
    expect(r.code).toBe(3);
  });

  it('exits 3 naming the module path and the real cause when a strategy fails to load', async () => {
    const { dir, file } = configFile('mode: paper\nstrategies:\n  - id: x\n    module: x.ts\n');
    writeFileSync(join(dir, 'x.ts'), "throw new Error('boom at import');\nexport default {};\n");
    const r = await cli(['run', '--config', file], undefined, 20_000);
    expect(r.stderr).toContain(`strategy "x", ${join(dir, 'x.ts')}): cannot load: boom at import`);
    expect(r.code).toBe(3);
  });
});

describe('a bot kept outside the project', () => {
  it('loads its strategy (no "type": "module" there), resolves paths beside the config and runs', async () => {
    const { dir, file } = configFile(
      'mode: paper\nbroker:\n  sim:\n    speed: ${SIM_SPEED_UNSET_X:-60}\nstrategies:\n  - id: x\n    module: strategies/x.ts\n    params: { fast: 3, slow: 8 }\nstate:\n  dir: var/state\nlogging:\n  format: json\n',
    );
    // A copy of a shipped strategy importing the runner by absolute path; its rxjs and
    // trading-signals imports are found from the runner's folder.
    const source = readFileSync(sma, 'utf8').replace(
      "'../src/index.ts'",
      `'${join(root, 'src/index.ts')}'`,
    );
    expect(source).toContain(join(root, 'src/index.ts'));
    mkdirSync(join(dir, 'strategies'));
    writeFileSync(join(dir, 'strategies', 'x.ts'), source);

    const v = await cli(['validate', '--config', file]);
    expect(v.stderr).toBe('');
    expect(v.stdout).toContain(`${file}: ok`);
    expect(v.code).toBe(0);

    const r = await cli(['run', '--config', file], '"bot started"');
    expect(r.stdout).toContain('"bot started"');
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, 'var', 'state', 'paper-journal.sqlite'))).toBe(true);
  });
});
