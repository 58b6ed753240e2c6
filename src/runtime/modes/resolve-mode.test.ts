import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { TiqsClient } from '../../api/tiqs-client.ts';
import { loadBacktestSpec } from '../../backtest/backtest-spec.ts';
import { ReplayMarket } from '../../backtest/replay-market.ts';
import { ReplaySource } from '../../backtest/replay-source.ts';
import { VirtualClock } from '../../clock/virtual-clock.ts';
import type { RunnerConfig } from '../../config/config-schema.ts';
import { MemoryJournal } from '../../execution/journal.ts';
import { readRecording } from '../../recording/read-recording.ts';
import type { KernelOptions } from './mode-parts.ts';
import { ModeError, resolveMode } from './resolve-mode.ts';

const logger = pino({ level: 'silent' });
// Nothing listens there, and nothing is sent: building the parts makes no request.
const endpoint = { baseUrl: 'http://127.0.0.1:9', appId: 'app', token: 'tok' };

async function input(mode: RunnerConfig['mode'], extra: Partial<KernelOptions> = {}) {
  const spec = await loadBacktestSpec('backtests/sma-crossover.yaml');
  const config: RunnerConfig = {
    ...spec.config,
    mode,
    state: { dir: mkdtempSync(join(tmpdir(), 'tr-mode-')) },
  };
  const options: KernelOptions = { config, configFile: spec.file, logger, ...extra };
  return { options, projectDir: spec.projectDir, log: () => logger };
}

async function replay(clock: VirtualClock) {
  const spec = await loadBacktestSpec('backtests/sma-crossover.yaml');
  const recording = await readRecording(resolve(spec.projectDir, spec.backtest.data));
  return { source: new ReplaySource(recording, clock), market: new ReplayMarket(recording, clock) };
}

describe('resolveMode', () => {
  it('refuses a replayed market in live mode, and a market without its source', async () => {
    const clock = new VirtualClock(0);
    const { source, market } = await replay(clock);
    await expect(resolveMode(await input('live', { clock, source }))).rejects.toThrow(ModeError);
    await expect(resolveMode(await input('paper', { clock, market }))).rejects.toThrow(
      /needs its source/,
    );
  });

  it('backtest: the caller’s clock, source and market, paper fills, a memory journal', async () => {
    const clock = new VirtualClock(0);
    const { source, market } = await replay(clock);
    const parts = await resolveMode(await input('paper', { clock, source, market }));
    expect(parts.clock).toBe(clock);
    expect(parts.networkClock).toBe(clock);
    expect(parts.feed).toBe(market);
    expect(parts.quoteSource).toBe(source);
    expect(parts.broker).not.toBeInstanceOf(TiqsClient);
    expect(parts.journal).toBeInstanceOf(MemoryJournal);
    await parts.close();
  });

  it('live: the HTTP client is the broker; paper: it is not, over the same endpoint', async () => {
    const clock = new VirtualClock(0);
    const live = await resolveMode(await input('live', { clock, endpoint }));
    expect(live.broker).toBeInstanceOf(TiqsClient);
    expect(live.quoteSource).toBe(live.broker);
    live.journal.close();
    await live.close();
    const paper = await resolveMode(await input('paper', { clock, endpoint }));
    expect(paper.broker).not.toBeInstanceOf(TiqsClient);
    expect(paper.quoteSource).toBeInstanceOf(TiqsClient);
    paper.journal.close();
    await paper.close();
  });
});
