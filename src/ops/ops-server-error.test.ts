import { createServer, type Server } from 'node:net';
import pino from 'pino';
import { Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { BotControls } from '../runtime/bot-controls.ts';
import { startDashboard } from './dashboard/dashboard-server.ts';
import { BotMetrics } from './metrics/bot-metrics.ts';
import { startMetricsServer } from './metrics/metrics-server.ts';
import { OpsServerError } from './ops-server-error.ts';

let taken: Server | undefined;
afterEach(() => {
  taken?.close();
  taken = undefined;
});

async function portInUse(): Promise<number> {
  const server = createServer();
  taken = server;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as { port: number }).port;
}

const status = () => ({ at: 0, totals: { realised: 0, unrealised: 0 } });
const controls = { changes$: new Subject<void>(), status } as unknown as BotControls;

describe('OpsServerError', () => {
  it('is what the dashboard throws on a port in use, with the cause', async () => {
    const port = await portInUse();
    const failed = await startDashboard({
      controls,
      config: { port, host: '127.0.0.1', token: 'a-token-for-the-test' },
      logger: pino({ level: 'silent' }),
    }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(OpsServerError);
    expect(failed).toMatchObject({ server: 'dashboard', problem: 'listen' });
    expect((failed as Error).cause).toMatchObject({ code: 'EADDRINUSE' });
    expect((failed as Error).message).not.toContain('a-token-for-the-test');
  });

  it('is what the metrics server throws on a port in use, with the cause', async () => {
    const port = await portInUse();
    const failed = await startMetricsServer(
      new BotMetrics(),
      { port, host: '127.0.0.1' },
      pino({ level: 'silent' }),
    ).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(OpsServerError);
    expect(failed).toMatchObject({ server: 'metrics', problem: 'listen' });
    expect((failed as Error).cause).toMatchObject({ code: 'EADDRINUSE' });
  });
});
