const IST_OFFSET_MS = 330 * 60_000;

/**
 * The IST calendar day of an instant, as a day number: the daily limits, the kill
 * switch and re-placement all count by the exchange's day, not UTC's.
 */
export const istDay = (at: number): number => Math.floor((at + IST_OFFSET_MS) / 86_400_000);
