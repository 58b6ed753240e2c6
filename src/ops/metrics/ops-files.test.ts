import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BotMetrics } from './bot-metrics.ts';

const root = process.cwd();

describe('ops/ files', () => {
  it('the Grafana dashboard queries only metrics the bot exports, and every family has a panel', async () => {
    const dashboard = JSON.parse(
      readFileSync(join(root, 'ops/grafana-dashboard.json'), 'utf8'),
    ) as {
      panels: { type: string; targets?: { expr: string }[] }[];
    };
    const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
    const used = new Set(
      exprs.flatMap((e) =>
        [...e.matchAll(/tiqs_runner_\w+/g)].map((m) => m[0].replace(/_(bucket|count|sum)$/, '')),
      ),
    );
    const exported = new Set(
      (await new BotMetrics().registry.getMetricsAsJSON()).map((m) => m.name),
    );
    expect([...used].filter((n) => !exported.has(n))).toEqual([]);
    expect([...exported].filter((n) => !used.has(n))).toEqual([]);
  });

  it('the Prometheus example scrapes /metrics with a bearer token read from a file', () => {
    const config = parse(readFileSync(join(root, 'ops/prometheus.yml'), 'utf8')) as {
      scrape_configs: {
        metrics_path: string;
        authorization: { type: string; credentials_file: string };
        static_configs: { targets: string[] }[];
      }[];
    };
    const [job] = config.scrape_configs;
    expect(job?.metrics_path).toBe('/metrics');
    expect(job?.authorization.type).toBe('Bearer');
    expect(job?.authorization.credentials_file).toMatch(/\.token$/);
    expect(job?.static_configs[0]?.targets).toEqual(['127.0.0.1:8780']);
  });
});
