import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';

/** Methods that change nothing: a cookie alone is enough for them. */
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * Whether a request came from the dashboard's own page. SameSite=Strict does not cover
 * it: "site" ignores the port, so a page on another 127.0.0.1 port (a dev server, a
 * notebook) is same-site and its form POST carries the cookie. The browser's
 * `Sec-Fetch-Site` says so directly; where it is missing, `Origin` must be our own.
 */
function fromOwnPage(c: Context): boolean {
  const site = c.req.header('sec-fetch-site');
  if (site !== undefined) return site === 'same-origin';
  const origin = c.req.header('origin');
  return origin !== undefined && origin === new URL(c.req.url).origin;
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/**
 * The cookie a browser keeps after opening `/?token=…` once, named for the token (a
 * short digest of it): a browser's cookies ignore the port, so two bots' dashboards on
 * one host (8780 and 8781, or two behind one proxy) shared one name, and opening one
 * signed the browser out of the other. 32 bits of a salted digest tell nothing of a token.
 */
function cookieName(token: string): string {
  return `tiqs_dashboard_${digest(`tiqs-runner dashboard cookie name:${token}`).toString('hex').slice(0, 8)}`;
}

/**
 * The dashboard's door: every request, page and API alike, shows the token, as
 * `Authorization: Bearer <token>` (programs) or the HttpOnly SameSite=Strict cookie a
 * browser got by opening `/?token=<token>` once (which redirects to `/`, so the token
 * leaves the address bar and the history). Anything else is 401. A POST (a control) on
 * the cookie alone must come from the dashboard's own page (`Sec-Fetch-Site:
 * same-origin`, or an `Origin` equal to ours), else 403; a bearer needs neither. Comparisons are
 * constant-time over digests; the cookie holds a digest of the token, never the token.
 */
export function dashboardAuth(token: string): MiddlewareHandler {
  const expected = digest(token);
  const cookie = cookieName(token);
  const cookieValue = digest(`tiqs-runner dashboard cookie:${token}`).toString('hex');
  const cookieExpected = digest(cookieValue);
  const tokenMatches = (given: string | undefined) =>
    given !== undefined && timingSafeEqual(digest(given), expected);
  const cookieMatches = (given: string | undefined) =>
    given !== undefined && timingSafeEqual(digest(given), cookieExpected);
  const unauthorized = (c: Context) =>
    c.text('unauthorized: open /?token=… once, or send Authorization: Bearer …', 401);
  return async (c, next) => {
    const query = c.req.query('token');
    if (query !== undefined && c.req.method === 'GET' && c.req.path === '/') {
      if (!tokenMatches(query)) return unauthorized(c);
      setCookie(c, cookie, cookieValue, {
        httpOnly: true,
        sameSite: 'Strict',
        path: '/',
        secure: new URL(c.req.url).protocol === 'https:',
      });
      return c.redirect('/', 303);
    }
    const header = c.req.header('authorization');
    const bearer = header?.startsWith('Bearer ') === true ? header.slice(7) : undefined;
    if (tokenMatches(bearer)) {
      await next();
      return;
    }
    if (cookieMatches(getCookie(c, cookie))) {
      if (!SAFE_METHODS.has(c.req.method) && !fromOwnPage(c))
        return c.text('forbidden: a control must come from the dashboard page itself', 403);
      await next();
      return;
    }
    return unauthorized(c);
  };
}
