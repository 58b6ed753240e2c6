/** Shorter values are not treated as secrets: they would blank ordinary words. */
const MIN_SECRET_LENGTH = 6;

/**
 * Removes every configured secret (bot token, webhook secret, app id, access token) from
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
  }
  // Longest first: a secret that contains another is replaced whole.
  const ordered = [...values].sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const v of ordered) out = out.split(v).join('***');
    return out;
  };
}
