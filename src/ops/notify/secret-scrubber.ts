import type { RunnerConfig } from '../../config/config-schema.ts';

/** Shorter values are not treated as secrets: they would blank ordinary words. */
const MIN_SECRET_LENGTH = 6;

/**
 * Removes every configured secret (bot token, webhook secret, app id, access token,
 * dashboard and metrics tokens) from
 * text before it goes into a message, a log line or an error: an HTTP client's error
 * names the URL it called, and a Telegram URL holds the bot token.
 *
 * @example
 * ```ts
 * const scrub = secretScrubber(['123:ABC-secret']);
 * scrub('token 123:ABC-secret refused'); // 'token *** refused'
 * ```
 */
export function secretScrubber(secrets: readonly (string | undefined)[]): (text: string) => string {
  const values = new Set<string>();
  for (const s of secrets) {
    if (s === undefined || s.length < MIN_SECRET_LENGTH) continue;
    values.add(s);
    values.add(encodeURIComponent(s));
    // As it reads inside a JSON string (a log line, a webhook body): `"` and `\` escaped.
    values.add(JSON.stringify(s).slice(1, -1));
  }
  // Longest first: a secret that contains another is replaced whole.
  const ordered = [...values].sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const v of ordered) out = out.split(v).join('***');
    return out;
  };
}

/** The secrets a config holds, for {@link secretScrubber}. */
export function configSecrets(config: RunnerConfig): (string | undefined)[] {
  return [
    config.notify.telegram?.botToken,
    config.notify.webhook?.secret,
    config.broker.appId,
    config.broker.token,
    config.dashboard?.token,
    config.metrics?.token,
  ];
}
