/** One pino line of the bot's JSON log. */
export interface LogLine {
  level: number;
  msg: string;
  component?: string;
  strategy?: string;
  [key: string]: unknown;
}

/** Parses the JSON lines among `lines` (others, such as banners, are skipped). */
export function parseLog(lines: readonly string[]): LogLine[] {
  const out: LogLine[] = [];
  for (const line of lines) {
    if (!line.startsWith('{')) continue;
    try {
      const v = JSON.parse(line) as LogLine;
      if (typeof v.msg === 'string') out.push(v);
    } catch {
      // A line cut by kill -9 is not evidence of anything.
    }
  }
  return out;
}

/** A strategy's intent, as the kernel logged it. */
export interface LoggedIntent {
  strategy: string;
  id: string;
  kind: string;
}

/** An order event, as the kernel logged it. */
export interface LoggedEvent {
  type: string;
  strategyId: string;
  intentId: string;
  tag?: string;
  reason?: string;
}

/** Every intent the strategies emitted. */
export function intentsOf(log: readonly LogLine[]): LoggedIntent[] {
  return log
    .filter((l) => l.msg === 'intent' && typeof l.intent === 'object' && l.intent !== null)
    .map((l) => {
      const i = l.intent as { id: string; kind: string };
      return { strategy: String(l.strategy), id: i.id, kind: i.kind };
    });
}

/** Every order event the execution engine reported. */
export function eventsOf(log: readonly LogLine[]): LoggedEvent[] {
  return log
    .filter((l) => typeof l.event === 'object' && l.event !== null && l.component === 'execution')
    .map((l) => l.event as LoggedEvent)
    .filter((e) => typeof e.type === 'string');
}

/** Events that end a place intent. */
export const TERMINAL = new Set(['OrderFilled', 'OrderCancelled', 'OrderRejected', 'OrderDenied']);

/**
 * Place intents without a terminal event: lost. `accepted` lets a test account for an
 * intent another way (for example an order seen at the broker after a kill -9).
 */
export function unfinishedIntents(
  intents: readonly LoggedIntent[],
  events: readonly LoggedEvent[],
): LoggedIntent[] {
  const ended = new Set(
    events.filter((e) => TERMINAL.has(e.type)).map((e) => `${e.strategyId}/${e.intentId}`),
  );
  return intents.filter((i) => i.kind === 'place' && !ended.has(`${i.strategy}/${i.id}`));
}

/** A failure message's context: what the log says about these intents, and its warnings. */
export function diagnose(log: readonly LogLine[], intents: readonly LoggedIntent[]): string {
  const ids = new Set(intents.slice(0, 3).map((i) => i.id));
  const about = log
    .filter((l) => [...ids].some((id) => JSON.stringify(l).includes(`"${id}"`)))
    .map((l) => `${l.msg} ${JSON.stringify(l.event ?? '')}`);
  const warnings = log
    .filter((l) => l.level >= 40)
    .slice(-15)
    .map((l) => `${l.msg} ${JSON.stringify(l.err ?? l.health ?? '')}`.slice(0, 300));
  return JSON.stringify({ about, warnings }, null, 1);
}
