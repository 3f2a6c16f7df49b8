/**
 * Reciprocal rank fusion: score(d) = Σ 1 / (k + rank_i(d)) over the ranked lists that contain d
 * (rank from 1). k = 60 as in Cormack et al. 2009. Ties break by first appearance.
 */
export function reciprocalRankFusion(lists: ReadonlyArray<readonly string[]>, k = 60): Array<{ id: string; score: number }> {
  const scores = new Map<string, number>();
  for (const list of lists) {
    list.forEach((id, i) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + i + 1)));
  }
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
}
