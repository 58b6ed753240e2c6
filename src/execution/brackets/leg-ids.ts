/** The two exits of a bracket: its stop (`sl`) and its target (`tp`). */
export type LegName = 'sl' | 'tp';

/** A leg's intent id: `<bracket>/sl`, and `<bracket>#<n>/sl` for its n-th re-placement. */
const LEG_ID = /^(.+?)(?:#(\d+))?\/(sl|tp)$/;

/** Suffix of a modification of a leg: `<leg id>~m`. */
const MODIFY_SUFFIX = '~m';

/**
 * The intent id of a bracket's leg. The first placement is `<id>/sl` (or `/tp`); a leg
 * placed again (its order was cancelled while the bot was down, or replaced past the
 * service's modification limit) takes a fresh id, `<id>#2/sl`, since an intent id is used once.
 *
 * @example
 * ```ts
 * legIntentId('p4', 'sl', 1); // 'p4/sl'
 * legIntentId('p4', 'tp', 2); // 'p4#2/tp'
 * ```
 */
export function legIntentId(bracketId: string, leg: LegName, generation: number): string {
  return generation <= 1 ? `${bracketId}/${leg}` : `${bracketId}#${generation}/${leg}`;
}

/** The intent id of a modification of a leg's order. */
export const modifyIntentId = (legId: string): string => `${legId}${MODIFY_SUFFIX}`;

/** Suffix of a bracket's market exit: `<bracket>/exit`. */
const EXIT_SUFFIX = '/exit';

/**
 * The intent id of the market exit that flattens a bracket whose protection failed (or
 * buys back the excess when both legs filled). One per bracket: it is never placed twice.
 */
export const exitIntentId = (bracketId: string): string => `${bracketId}${EXIT_SUFFIX}`;

/**
 * The bracket a leg's intent id belongs to, i.e. its one-cancels-other group, or
 * undefined for any other order. Risk counts a group's working legs once: the stop and
 * the target close the same position, only one of them can.
 *
 * @example
 * ```ts
 * ocoGroupOf('p4#2/sl'); // 'p4'
 * ocoGroupOf('p4'); // undefined
 * ```
 */
export function ocoGroupOf(intentId: string): string | undefined {
  // Most ids are no leg's: a suffix test spares them the pattern (risk runs this for every
  // working order of the instrument on every placement).
  return isLegShaped(intentId) ? LEG_ID.exec(intentId)?.[1] : undefined;
}

/** Whether `id` ends as a leg's id must (the pattern's last part), before running the pattern. */
function isLegShaped(id: string): boolean {
  return id.endsWith('/sl') || id.endsWith('/tp');
}

/** Which part of a bracket an intent id names, if it is one of a bracket's. */
export interface BracketPart {
  /** The bracket's id (for its entry, the id itself). */
  bracket: string;
  /** `exit` is the bracket's market exit (see {@link exitIntentId}). */
  part: 'entry' | LegName | 'exit';
  /** A modification of the leg (`<leg id>~m`), not the leg's order itself. */
  modify: boolean;
}

/**
 * The bracket part an intent id names: a leg (or a leg's modification) by its shape,
 * anything else as a possible entry (the caller knows whether a bracket has that id).
 *
 * @example
 * ```ts
 * legOf('p4#2/sl~m'); // { bracket: 'p4', part: 'sl', modify: true }
 * legOf('p4/exit'); // { bracket: 'p4', part: 'exit', modify: false }
 * legOf('p4'); // { bracket: 'p4', part: 'entry', modify: false }
 * ```
 */
export function legOf(intentId: string): BracketPart {
  const modify = intentId.endsWith(MODIFY_SUFFIX);
  const id = modify ? intentId.slice(0, -MODIFY_SUFFIX.length) : intentId;
  if (!modify && id.endsWith(EXIT_SUFFIX))
    return { bracket: id.slice(0, -EXIT_SUFFIX.length), part: 'exit', modify: false };
  const match = isLegShaped(id) ? LEG_ID.exec(id) : null;
  if (match === null) return { bracket: intentId, part: 'entry', modify: false };
  return { bracket: match[1] as string, part: match[3] as LegName, modify };
}
