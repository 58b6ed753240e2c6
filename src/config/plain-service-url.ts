/** Why `url` may not be a service's base URL, if it may not (it appears in logs and errors). */
export const PLAIN_SERVICE_URL_PROBLEM =
  'expected a plain service URL without a user name, password, query or fragment (it appears in logs; give credentials as appId and token)';

/**
 * Whether `url` carries nothing secret: no user name or password, no query, no fragment.
 * The base URL names the service in log lines and errors, so nothing may ride in it. An
 * unparsable URL passes here; parsing it is the caller's check.
 *
 * @example
 * ```ts
 * isPlainServiceUrl('https://api.tiqs.trading'); // true
 * isPlainServiceUrl('https://u:p@api.tiqs.trading'); // false
 * ```
 */
export function isPlainServiceUrl(url: string): boolean {
  if (!URL.canParse(url)) return true;
  const u = new URL(url);
  // An empty `?` or `#` too: nothing may follow the path.
  return u.username === '' && u.password === '' && !url.includes('?') && !url.includes('#');
}
