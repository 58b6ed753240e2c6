const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** Whether `baseUrl` names this machine (a local simulator), never a real broker. */
export function isLoopbackUrl(baseUrl: string): boolean {
  try {
    return LOOPBACK.test(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}
