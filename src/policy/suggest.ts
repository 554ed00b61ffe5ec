/** Levenshtein edit distance (insert, delete, substitute: cost 1 each). */
function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(row[j - 1]! + 1, prev[j]! + 1, prev[j - 1]! + cost);
    }
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * The candidate nearest to `word` by edit distance (ties: the first candidate), or undefined when
 * none is close enough to be a plausible typo (distance at most max(2, a third of the word)).
 */
export function nearest(word: string, candidates: Iterable<string>): string | undefined {
  const w = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = editDistance(w.slice(0, 200), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  const limit = Math.max(2, Math.floor(word.length / 3));
  return bestDistance <= limit ? best : undefined;
}

/** "did you mean `x`?" or a list of the valid words. */
export function didYouMean(word: string, candidates: readonly string[], noun = 'valid keys'): string {
  const best = nearest(word, candidates);
  if (best !== undefined) return `did you mean \`${best}\`?`;
  if (candidates.length === 0) return `there are no ${noun} here`;
  return `${noun}: ${candidates.map((c) => `\`${c}\``).join(', ')}`;
}
