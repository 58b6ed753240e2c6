/**
 * Polls `test` every `everyMs` until it holds, for at most `timeoutMs`: bounded polling of
 * real I/O (Redis, a child's output, a loopback server) that no virtual clock can drive.
 * Rejects naming `what` when time runs out, so a hang reads as what it waited for.
 *
 * @example
 * ```ts
 * await pollUntil(async () => (await queue.getJobState(id)) === 'completed', 5_000, 'the job', 50);
 * ```
 */
export async function pollUntil(
  test: () => Promise<boolean> | boolean,
  timeoutMs: number,
  what: string,
  everyMs = 100,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await test()) return;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
