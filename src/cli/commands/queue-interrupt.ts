import { createInterface } from 'node:readline';
import type { QueueExecutor } from '../../backtest/queue/queue-executor.ts';

/** `--on-interrupt`: ask on a terminal (else leave), or decide beforehand. */
export type InterruptChoice = 'ask' | 'leave' | 'remove';

/** How long the question waits for an answer before it takes the default (leave). */
const ASK_MS = 30_000;
/** How long removing the jobs may take (Redis may be what broke). */
const REMOVE_MS = 10_000;

/**
 * What to do with the unfinished jobs after Ctrl-C: `leave` and `remove` as given; `ask`
 * asks on a terminal (default LEAVE: Enter, no answer within 30 s, or anything but r) and
 * leaves them when stdin is not a terminal.
 */
export async function interruptDecision(
  choice: InterruptChoice,
  unfinished: number,
  ask: (question: string) => Promise<string | undefined> = askOnTerminal,
  tty: boolean = process.stdin.isTTY === true,
): Promise<'leave' | 'remove'> {
  if (choice !== 'ask') return choice;
  if (!tty || unfinished === 0) return 'leave';
  const answer = await ask(
    `\nleave the ${unfinished} unfinished job(s) queued for the workers (a rerun reattaches), or remove them? [L/r] `,
  );
  return /^\s*r(emove)?\s*$/i.test(answer ?? '') ? 'remove' : 'leave';
}

/**
 * Asks on the terminal (stderr); undefined after {@link ASK_MS}. Ctrl-C while it asks
 * exits at once: readline takes the terminal's Ctrl-C, so it is caught here.
 */
function askOnTerminal(question: string): Promise<string | undefined> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  return new Promise<string | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ASK_MS);
    rl.on('SIGINT', () => process.exit(130));
    rl.question(question, (answer) => {
      clearTimeout(timer);
      resolve(answer);
    });
  }).finally(() => rl.close());
}

/**
 * Carries out Ctrl-C's choice on a queued sweep and says what happened: the jobs left
 * queued (the workers go on; the same command reattaches), or the waiting ones removed
 * (running ones finish and are ignored). Bounded: a Redis that does not answer leaves them.
 */
export async function settleInterrupt(
  executor: QueueExecutor,
  choice: InterruptChoice,
  url: string,
): Promise<void> {
  const unfinished = executor.unfinished.length;
  if (!executor.submitted) {
    process.stderr.write('interrupted before the jobs were queued: nothing queued\n');
    return;
  }
  const decision = await interruptDecision(choice, unfinished);
  if (decision === 'leave') {
    process.stderr.write(
      `interrupted: left ${unfinished} unfinished job(s) queued on ${url} for the workers; run the same command again to collect the results\n`,
    );
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    executor.removeUnfinished(),
    new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), REMOVE_MS);
    }),
  ]).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
  clearTimeout(timer);
  if (outcome === 'timeout' || outcome instanceof Error) {
    const why = outcome === 'timeout' ? `no answer in ${REMOVE_MS / 1000} s` : outcome.message;
    process.stderr.write(
      `interrupted: could not remove the jobs (${why}); they stay queued on ${url}\n`,
    );
    return;
  }
  const running =
    outcome.running === 0
      ? ''
      : `; ${outcome.running} running job(s) finish and are then ignored (their results stay in the queue)`;
  process.stderr.write(`interrupted: removed ${outcome.removed} waiting job(s)${running}\n`);
}
