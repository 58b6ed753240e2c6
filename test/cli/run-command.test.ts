import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Runs `tiqs-runner run` as a real process; resolves when `until` appears on stdout. */
function runBot(config: string) {
  const child = spawn(process.execPath, ['bin/tiqs-runner.js', 'run', '--config', config], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += String(d);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const seen = (text: string) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (stdout.includes(text)) resolve();
      };
      child.stdout.on('data', (d) => {
        stdout += String(d);
        check();
      });
    });
  return { child, exited, seen, output: () => ({ stdout, stderr }) };
}

describe('tiqs-runner run', () => {
  it('starts the paper bot on the embedded simulator and exits 0 on SIGTERM after a graceful stop', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tr-run-'));
    const config = join(dir, 'paper.yaml');
    writeFileSync(
      config,
      `mode: paper
broker: { baseUrl: embedded, sim: { speed: 60 } }
strategies:
  - id: sma
    module: ${join(process.cwd(), 'strategies/sma-crossover.ts')}
state: { dir: ${join(dir, 'state')} }
logging: { format: json }
`,
    );
    const bot = runBot(config);
    await bot.seen('"bot started"');
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
    const { stdout } = bot.output();
    expect(stdout).toContain('"msg":"stopped"');
    expect(stdout).toContain('strategy PnL');
    expect(stdout).not.toContain('sim-token');
  });

  it('exits 3 with the file, field path and expectation on a bad config', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tr-run-'));
    const config = join(dir, 'bad.yaml');
    writeFileSync(
      config,
      'mode: paper\nstrategies: [{ id: a, module: x.ts }]\nrisk: { maxOpenOrders: -1 }\n',
    );
    const bot = runBot(config);
    expect(await bot.exited).toBe(3);
    expect(bot.output().stderr).toContain(`${config}: risk.maxOpenOrders:`);
  });
});
