import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Runs `tiqs-runner run` until `text` is on stdout, then SIGTERM; every wait bounded (60 s). */
async function runUntil(logging: string, text: RegExp): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'tr-runlog-'));
  const config = join(dir, 'paper.yaml');
  writeFileSync(
    config,
    `mode: paper
broker: { baseUrl: embedded, sim: { speed: 60, start: "2026-11-20T10:00:00+05:30" } }
strategies:
  - id: sma
    module: ${join(process.cwd(), 'strategies/sma-crossover.ts')}
state: { dir: ${join(dir, 'state')} }
logging: ${logging}
`,
  );
  const child = spawn(process.execPath, ['bin/tiqs-runner.js', 'run', '--config', config], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  const limit = setTimeout(() => child.kill('SIGKILL'), 60_000);
  child.stdout.on('data', (d) => {
    stdout += String(d);
    if (text.test(stdout)) child.kill('SIGTERM');
  });
  await new Promise((done) => child.on('exit', done));
  clearTimeout(limit);
  return stdout;
}

describe('run: log lines carry the market time (issue 16 §1, built in issue 15)', () => {
  it('json: every line after the kernel exists has marketTime in IST, from the simulator’s clock', async () => {
    const stdout = await runUntil('{ format: json }', /"msg":"bot started"/);
    const started = stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string; marketTime?: string })
      .find((r) => r.msg === 'bot started');
    expect(started?.marketTime).toMatch(/^2026-11-20T10:0\d:\d\d\.\d{3}\+05:30$/);
  });

  it('pretty: one readable line a record, in the market’s IST time', async () => {
    const stdout = await runUntil('{ format: pretty }', /bot started/);
    expect(stdout).toMatch(
      /^10:0\d:\d\d IST {2}kernel {2}bot started {2}mode=paper strategies=\[sma\]$/m,
    );
    expect(stdout).not.toContain('"level"');
  });
});
