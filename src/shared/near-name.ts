/**
 * The known name a mistyped one was most likely meant to be: a scenario, a plan key, a metric a declaration
 * names. One rule for every "did you mean": at most two edits apart, case aside (commander says it of flags).
 */

/** The known name nearest `name` within two edits (the first of equals); null when none is that near. */
function nearestName(name: string, known: readonly string[]): string | null {
  let best: { name: string; distance: number } | null = null;
  for (const candidate of known) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance <= 2 && (best === null || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name ?? null;
}

/** `: did you mean "echo"?` when a known name is near `name`; '' otherwise. */
export function didYouMean(name: string, known: readonly string[]): string {
  const near = nearestName(name, known);
  return near === null ? '' : `: did you mean "${near}"?`;
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}
