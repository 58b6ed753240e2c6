import { createHash } from 'node:crypto';

/**
 * The name a master's daily cache files carry for the service they came from: `embedded`
 * for the in-process simulator, else the first 12 hex digits of the SHA-256 of the
 * `baseUrl` (its one canonical spelling). A state folder shared by a paper config (the simulator) and a live one (the
 * service) then never hands one's tokens, lots and ticks to the other; the URL itself
 * stays out of file names.
 *
 * @example
 * ```ts
 * instrumentMasterSourceKey('embedded'); // 'embedded'
 * instrumentMasterSourceKey('https://api.example.in'); // e.g. '3f0c6a1b2d4e'
 * ```
 */
export function instrumentMasterSourceKey(baseUrl: string): string {
  if (baseUrl === 'embedded') return 'embedded';
  return createHash('sha256').update(canonicalUrl(baseUrl)).digest('hex').slice(0, 12);
}

/**
 * One spelling per service (`https://API.x:443/` and `https://api.x` name one), without
 * trailing slashes, as the client sends requests (`tiqs-client.ts`): a plain URL keeps
 * the digest it always had.
 */
function canonicalUrl(baseUrl: string): string {
  const href = URL.canParse(baseUrl) ? new URL(baseUrl).href : baseUrl;
  return href.replace(/\/+$/, '');
}
