/** Edit distance between two strings (insert, delete, substitute; each costs 1). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

function sharedPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i;
}

/**
 * The valid key nearest to a misspelled one, or `undefined` when none is close enough to
 * be a plausible typo. Case is ignored first (`marketdata` → `marketData`); otherwise the
 * distance may be at most a third of the longer name (at least 2), so `parms` finds
 * `params` but `foo` suggests nothing.
 */
export function nearestKey(key: string, candidates: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  const sameButCase = candidates.find((c) => c.toLowerCase() === lower);
  if (sameButCase !== undefined) return sameButCase;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  let bestPrefix = 0;
  for (const candidate of candidates) {
    const c = candidate.toLowerCase();
    const d = editDistance(lower, c);
    // Ties go to the longer shared start: `sped` is `speed`, not `seed`.
    const prefix = sharedPrefix(lower, c);
    if (d < bestDistance || (d === bestDistance && prefix > bestPrefix)) {
      best = candidate;
      bestDistance = d;
      bestPrefix = prefix;
    }
  }
  const limit = Math.max(2, Math.floor(Math.max(key.length, best?.length ?? 0) / 3));
  return bestDistance <= limit ? best : undefined;
}

/** `unknown key "fastt"; did you mean "fast"?`, or the list of valid keys when none is near. */
export function unknownKeyMessage(key: string, candidates: readonly string[]): string {
  const near = nearestKey(key, candidates);
  if (near !== undefined) return `unknown key "${key}"; did you mean "${near}"?`;
  if (candidates.length === 0) return `unknown key "${key}"; nothing is expected here`;
  return `unknown key "${key}"; expected one of ${candidates.map((c) => `"${c}"`).join(', ')}`;
}
