import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/clock/virtual-clock.ts';
import { parseConfig } from '../../src/config/load-config.ts';
import { JournalLockedError } from '../../src/execution/journal-lock.ts';
import { Kernel } from '../../src/runtime/kernel.ts';
import { type RunningSimulator, startSimulator } from '../../src/sim/index.ts';
import { countedFetch } from '../helpers/execution-harness.ts';

let sim: RunningSimulator | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await sim?.close();
  sim = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('paper mode on a state dir another live bot writes', () => {
  it("is refused before the other bot's journal is removed (final review)", async () => {
    // Checked to fail: with the fresh journal's files removed before the lock is taken,
    // the other bot's journal text was gone when the refusal came.
    const clock = new VirtualClock(Date.parse('2026-11-20T09:20:00+05:30'));
    sim = await startSimulator({ clock, seed: 11 });
    const stateDir = mkdtempSync(join(tmpdir(), 'tr-paper-lock-'));
    dirs.push(stateDir);
    mkdirSync(stateDir, { recursive: true });
    const journal = join(stateDir, 'paper-journal.sqlite');
    writeFileSync(journal, "the running bot's journal");
    // The process that started this test runner: alive, and not this one.
    writeFileSync(`${journal}.lock`, String(process.ppid));
    const config = parseConfig(
      `mode: paper
broker:
  baseUrl: embedded
strategies:
  - id: buyer
    module: ${process.cwd()}/test/fixtures/strategies/buy-once.ts
    params: { quantity: 10 }
state:
  dir: ${stateDir}
`,
      'config/test.yaml',
      {},
    );
    await expect(
      Kernel.create({
        config,
        configFile: join(process.cwd(), 'config', 'test.yaml'),
        logger: pino({ level: 'silent' }),
        clock,
        endpoint: { baseUrl: sim.url, appId: 'sim-app', token: 'sim-token' },
        fetch: countedFetch,
      }),
    ).rejects.toBeInstanceOf(JournalLockedError);
    expect(readFileSync(journal, 'utf8')).toBe("the running bot's journal");
  });
});
