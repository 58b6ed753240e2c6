import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/load-config.ts';
import { configSecrets, secretScrubber } from './secret-scrubber.ts';

describe('secretScrubber', () => {
  it('removes a secret as written, URL-encoded and JSON-escaped', () => {
    const secret = 'we"b\\hook/sec ret';
    const scrub = secretScrubber([secret, 'short']);
    expect(scrub(`raw ${secret} url ${encodeURIComponent(secret)}`)).toBe('raw *** url ***');
    expect(scrub(JSON.stringify({ msg: `x ${secret} y` }))).toBe('{"msg":"x *** y"}');
    // Under 6 characters: not a secret (it would blank ordinary words).
    expect(scrub('short')).toBe('short');
  });

  it('knows every secret of a config, the dashboard and metrics tokens too', () => {
    const config = parseConfig(
      `mode: paper
strategies:
  - id: flat
    module: ${process.cwd()}/test/fixtures/strategies/buy-when-flat.ts
dashboard: { token: dash-token-123456 }
metrics: { port: 9464, token: metrics-token-123456 }
notify:
  webhook: { url: "http://127.0.0.1:1/h", secret: hook-secret-123456 }
  telegram: { botToken: "123456:tg-token", chatIds: [1] }
`,
      'c.yaml',
      {},
    );
    const scrub = secretScrubber(configSecrets(config));
    expect(scrub('dash-token-123456 metrics-token-123456 hook-secret-123456 123456:tg-token')).toBe(
      '*** *** *** ***',
    );
  });
});
