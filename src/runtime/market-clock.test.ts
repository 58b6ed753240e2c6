import { describe, expect, it } from 'vitest';
import { LiveClock } from '../clock/live-clock.ts';
import type { RunnerConfig } from '../config/config-schema.ts';
import { isLoopbackUrl } from '../config/is-loopback-url.ts';
import { externalMarketClock, MarketClockError } from './market-clock.ts';

const broker = (baseUrl: string, sim: Partial<RunnerConfig['broker']['sim']>) =>
  ({ baseUrl, sim: { seed: 1, speed: 1, ...sim } }) as RunnerConfig['broker'];

describe('externalMarketClock', () => {
  it('is wall time when nothing asks for scaling', () => {
    expect(externalMarketClock(broker('https://api.example.com', {}))).toBeInstanceOf(LiveClock);
  });

  it('agrees with an anchored simulator: start + (wall − anchor) × speed', () => {
    const start = '2026-01-05T09:00:00+05:30';
    const anchor = '2026-11-23T18:00:00Z';
    let wall = Date.parse(anchor) + 30_000;
    const clock = externalMarketClock(
      broker('http://127.0.0.1:4000', { start, speed: 120, anchor }),
      () => wall,
    );
    expect(clock.now()).toBe(Date.parse(start) + 3_600_000);
    wall += 1_000;
    expect(clock.now()).toBe(Date.parse(start) + 3_720_000);
  });

  // Checked by dropping the loopback test: the scaled clock is then built for a real host.
  it('refuses a scaled clock against a host that is not loopback', () => {
    const b = broker('https://api.example.com', { start: '2026-01-05T09:00:00+05:30' });
    expect(() => externalMarketClock(b)).toThrow(MarketClockError);
    expect(() => externalMarketClock(broker('http://10.0.0.1', { speed: 2 }))).toThrow(/loopback/);
  });

  it('knows loopback hosts', () => {
    for (const u of ['http://localhost:1', 'http://127.0.0.1:2', 'http://[::1]:3']) {
      expect(isLoopbackUrl(u), u).toBe(true);
    }
    for (const u of ['http://127.0.0.1.evil.com', 'https://api.tiqs.in', 'nope']) {
      expect(isLoopbackUrl(u), u).toBe(false);
    }
  });
});
