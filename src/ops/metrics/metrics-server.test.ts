import { describe, expect, it } from 'vitest';
import { memoryLogger } from '../../market-data/testing/fake-quote-source.ts';
import { BotMetrics } from './bot-metrics.ts';
import { startMetricsServer } from './metrics-server.ts';

/** The warn lines a metrics server logs at start, for `host` with or without a token. */
async function startLines(host: string, token?: string) {
  const { logger, lines } = memoryLogger('info');
  const server = await startMetricsServer(
    new BotMetrics(),
    { port: 0, host, ...(token === undefined ? {} : { token }) },
    logger,
  );
  await server.close();
  return { warns: lines.filter((l) => l.level === 40), all: JSON.stringify(lines) };
}

describe('metrics.port exposure', () => {
  // Checked to fail: before, a server on 0.0.0.0 without a token logged only its info line
  // ('expected [] to have a length of 1').
  it('warns when served beyond loopback without a token, and never logs the token', async () => {
    const open = await startLines('0.0.0.0');
    expect(open.warns).toHaveLength(1);
    expect(open.warns[0]?.msg).toMatch(
      /^metrics served on 0\.0\.0\.0:\d+ without metrics\.token: anyone who can reach the port can read them/,
    );
    expect(open.warns[0]).toMatchObject({ component: 'metrics', token: false });

    expect((await startLines('127.0.0.1')).warns).toEqual([]);
    const guarded = await startLines('0.0.0.0', 'scrape-secret-42');
    expect(guarded.warns).toEqual([]);
    expect(guarded.all).not.toContain('scrape-secret-42');
  });
});
