import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';

/** The cookie a browser keeps after opening `/?token=…` once. */
const COOKIE = 'tiqs_dashboard';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/**
 * The dashboard's door: every request, page and API alike, shows the token, as
 * `Authorization: Bearer <token>` (programs) or the HttpOnly SameSite=Strict cookie a
 * browser got by opening `/?token=<token>` once (which redirects to `/`, so the token
 * leaves the address bar and the history). Anything else is 401. Comparisons are
 * constant-time over digests; the cookie holds a digest of the token, never the token.
 */
export function dashboardAuth(token: string): MiddlewareHandler {
  const expected = digest(token);
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
      setCookie(c, COOKIE, cookieValue, {
        httpOnly: true,
        sameSite: 'Strict',
        path: '/',
        secure: new URL(c.req.url).protocol === 'https:',
      });
      return c.redirect('/', 303);
    }
    const header = c.req.header('authorization');
    const bearer = header?.startsWith('Bearer ') === true ? header.slice(7) : undefined;
    if (tokenMatches(bearer) || cookieMatches(getCookie(c, COOKIE))) {
      await next();
      return;
    }
    return unauthorized(c);
  };
}
