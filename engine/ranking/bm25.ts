/**
 * Okapi BM25 (Robertson and Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond",
 * 2009) over small collections: the sentences of one bot's description, or its files' context
 * texts. The IDF is Lucene's `ln(1 + (N − n + 0.5) / (n + 0.5))`, which stays positive when a term
 * is in most documents (a description has few sentences). Query terms count once each, weighted by
 * `termWeight` (prefix terms less).
 */
import { termWeight } from './terms.ts';

/** BM25's free parameters; the usual defaults. */
export const BM25_PARAMS = { k1: 1.2, b: 0.75 } as const;

/** One document's result. */
export interface Scored {
  /** Index of the document in the input. */
  index: number;
  /** BM25 score (0 when no query term is in the document). */
  score: number;
  /** Query terms of full weight (stems, concept tags) found in the document. */
  fullMatches: number;
}

/**
 * Scores each document (a list of terms) against the query terms.
 * @returns one {@link Scored} per document, in input order.
 */
export function bm25(
  query: readonly string[],
  documents: ReadonlyArray<readonly string[]>,
  params: { k1: number; b: number } = BM25_PARAMS,
): Scored[] {
  const n = documents.length;
  if (n === 0) return [];
  const counts = documents.map((d) => {
    const tf = new Map<string, number>();
    for (const t of d) tf.set(t, (tf.get(t) ?? 0) + 1);
    return tf;
  });
  const avgLength = documents.reduce((sum, d) => sum + d.length, 0) / n || 1;
  const unique = [...new Set(query)];
  const idf = new Map<string, number>();
  for (const t of unique) {
    const df = counts.reduce((k, tf) => k + (tf.has(t) ? 1 : 0), 0);
    idf.set(t, Math.log(1 + (n - df + 0.5) / (df + 0.5)));
  }
  return documents.map((doc, index) => {
    const tf = counts[index]!;
    const norm = params.k1 * (1 - params.b + (params.b * doc.length) / avgLength);
    let score = 0;
    let fullMatches = 0;
    for (const t of unique) {
      const f = tf.get(t);
      if (!f) continue;
      const weight = termWeight(t);
      if (weight === 1) fullMatches++;
      score += weight * idf.get(t)! * ((f * (params.k1 + 1)) / (f + norm));
    }
    return { index, score, fullMatches };
  });
}
