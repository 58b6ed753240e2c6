/** Keys whose values are secrets wherever they appear in a spec. */
const SECRET_KEY =
  /^(token|appId|tokenFile|secret|password|apiKey|accessToken|api_key|apiSecret)$/i;

/** `key: value` in block or flow style; the value up to a comma, brace or comment. */
const PAIR =
  /(["']?)([A-Za-z_][\w-]*)\1(\s*:\s+)("[^"\n]*"|'[^'\n]*'|\$\{[^}\n]*\}|[^\s,{}[#][^,}#\n]*)/g;

/** A value that is not a secret: a number (an instrument token) or an `${ENV}` placeholder. */
const HARMLESS = /^(-?\d+(\.\d+)?|["']?\$\{[A-Z0-9_]+\}["']?)$/;

/**
 * A spec's text with secret values masked, for the report: the value of any
 * `token`, `appId`, `secret`, `password`… key becomes `<redacted>`, unless it is a
 * number (an instrument's token) or an `${ENV}` placeholder (which names the variable,
 * not its value). Everything else is shown as written.
 *
 * @example
 * ```ts
 * redactSpec('broker: { token: abc123 }'); // 'broker: { token: <redacted> }'
 * ```
 */
export function redactSpec(text: string): string {
  return text.replace(PAIR, (whole, quote: string, key: string, colon: string, value: string) => {
    const v = value.trim();
    if (!SECRET_KEY.test(key) || HARMLESS.test(v)) return whole;
    return `${quote}${key}${quote}${colon}<redacted>${value.slice(value.trimEnd().length)}`;
  });
}

/**
 * Params with secret values masked as in {@link redactSpec}: a string under a secret
 * key (at any depth) becomes `<redacted>`; numbers, booleans and other keys stay.
 *
 * @example
 * ```ts
 * redactParams({ apiKey: 'k-1', token: 3045 }); // { apiKey: '<redacted>', token: 3045 }
 * ```
 */
export function redactParams(value: unknown, key = ''): unknown {
  if (typeof value === 'string') {
    return SECRET_KEY.test(key) && !HARMLESS.test(value) ? '<redacted>' : value;
  }
  if (Array.isArray(value)) return value.map((v) => redactParams(v, key));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactParams(v, k)]));
  }
  return value;
}
