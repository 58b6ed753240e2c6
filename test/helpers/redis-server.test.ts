import { spawnSync } from 'node:child_process';
import { createConnection } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import {
  describeWithRedis,
  hasRedisServer,
  type RedisServer,
  redisSuiteMode,
  startRedis,
} from './redis-server.ts';

/** Whether anything accepts a TCP connection on the loopback port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('hasRedisServer', () => {
  it('says whether redis-server is on the PATH', () => {
    const found = spawnSync('sh', ['-c', 'command -v redis-server'], { stdio: 'ignore' });
    expect(hasRedisServer()).toBe(found.status === 0);
  });
});

describe('redisSuiteMode', () => {
  it('runs with the binary, skips without it, and fails without it in CI', () => {
    expect(redisSuiteMode(true, undefined)).toBe('run');
    expect(redisSuiteMode(true, 'true')).toBe('run');
    expect(redisSuiteMode(false, undefined)).toBe('skip');
    expect(redisSuiteMode(false, '')).toBe('skip');
    expect(redisSuiteMode(false, 'true')).toBe('fail');
    expect(redisSuiteMode(false, '1')).toBe('fail');
  });
});

describeWithRedis('startRedis', () => {
  const servers: RedisServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.stop();
  });

  it('serves on a loopback port, keeps keys across a restart, and stops', async () => {
    const server = await startRedis();
    servers.push(server);
    expect(server.url).toBe(`redis://127.0.0.1:${server.port}`);

    const client = new Redis(server.url, { maxRetriesPerRequest: null });
    try {
      await client.set('kept', 'yes');
      await server.restart();
      // ioredis reconnects on its own; the append-only file brought the key back.
      expect(await client.get('kept')).toBe('yes');
    } finally {
      client.disconnect();
    }

    await server.stop();
    expect(await accepts(server.port)).toBe(false);
    await server.stop(); // a second stop is harmless
  });

  it('gives two servers two ports', async () => {
    const a = await startRedis();
    const b = await startRedis();
    servers.push(a, b);
    expect(a.port).not.toBe(b.port);
    expect(a.dir).not.toBe(b.dir);
  });
});
