import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';

let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill('SIGTERM');
  child = undefined;
});

describe('tiqs-runner sim (the CLI)', () => {
  it('starts on a free port, prints its URL, serves and stops on SIGTERM', async () => {
    const proc = spawn(
      process.execPath,
      [
        'bin/tiqs-runner.js',
        'sim',
        '--port',
        '0',
        '--always-open',
        '--seed',
        '3',
        '--token',
        'cli-token',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = proc;
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      proc.stdout?.on('data', (b: Buffer) => {
        out += b.toString();
        const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
        if (m !== null) resolve(m[0]);
      });
      proc.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    const res = await fetch(`${url}/info/quote/ltp`, {
      method: 'POST',
      headers: { appId: 'sim-app', token: 'cli-token', 'content-type': 'application/json' },
      body: JSON.stringify({ token: 3045 }),
    });
    expect(res.status).toBe(200);
    const exited = new Promise<number | null>((resolve) => proc.on('exit', resolve));
    proc.kill('SIGTERM');
    expect(await exited).toBe(0);
    child = undefined;
  });
});
