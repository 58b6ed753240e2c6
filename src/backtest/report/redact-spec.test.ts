import { describe, expect, it } from 'vitest';
import { redactParams, redactSpec } from './redact-spec.ts';

describe('redactSpec', () => {
  it('masks secret values in block and flow style, keeps tokens that are numbers and ${ENV} names', () => {
    const text = [
      'broker:',
      '  baseUrl: https://api.example',
      '  appId: my-app-1234',
      '  token: "eyJhbGciOi.secret"',
      '  # token: old-secret',
      'auth: { password: hunter2, apiKey: k-1 }',
      'other: { token: ${TIQS_ACCESS_TOKEN} }',
      'recording:',
      '  instruments:',
      '    - { token: 3045, mode: full }',
    ].join('\n');
    const out = redactSpec(text);
    for (const secret of ['my-app-1234', 'eyJhbGciOi', 'old-secret', 'hunter2', 'k-1']) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain('  appId: <redacted>');
    expect(out).toContain('auth: { password: <redacted>, apiKey: <redacted> }');
    expect(out).toContain('token: ${TIQS_ACCESS_TOKEN}');
    expect(out).toContain('- { token: 3045, mode: full }');
    expect(out).toContain('baseUrl: https://api.example');
  });

  it('masks secret strings in params at any depth, keeps numbers and other keys', () => {
    expect(
      redactParams({
        s1: { apiKey: 'k-1', token: 3045, symbol: 'SBIN-EQ', feeds: [{ password: 'p' }] },
        s2: { secret: '${MY_SECRET}' },
      }),
    ).toEqual({
      s1: {
        apiKey: '<redacted>',
        token: 3045,
        symbol: 'SBIN-EQ',
        feeds: [{ password: '<redacted>' }],
      },
      s2: { secret: '${MY_SECRET}' },
    });
  });
});
