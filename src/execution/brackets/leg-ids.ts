/** The two exits of a bracket: its stop (`sl`) and its target (`tp`). */
export type LegName = 'sl' | 'tp';

/** A leg's intent id: `<bracket>/sl`, and `<bracket>#<n>/sl` for its n-th re-placement. */
const LEG_ID = /^(.+?)(?:#(\d+))?\/(sl|tp)$/;

/**
 * The intent id of a bracket's leg. The first placement is `<id>/sl` (or `/tp`); a leg
 * placed again after a restart (its order was cancelled while the bot was down) takes a
 * fresh id, `<id>#2/sl`, since an intent id is used once.
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
  return LEG_ID.exec(intentId)?.[1];
}
