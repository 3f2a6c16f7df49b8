/**
 * Terms for keyword recall: lower-cased Latin/other-script words and digit runs, plus
 * overlapping bigrams of consecutive CJK characters (a lone CJK character stays a unigram),
 * since Chinese and Japanese have no spaces between words.
 */
const STOP = new Set('a an and are as at be but by for from has have i in is it its of on or that the this to was were will with you your we our'.split(' '));

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/;
const TOKEN = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+|[\p{L}\p{N}_]+/gu;

export function recallTerms(text: string): string[] {
  const terms: string[] = [];
  for (const m of text.normalize('NFKC').toLowerCase().matchAll(TOKEN)) {
    const run = m[0];
    if (CJK.test(run[0] as string)) {
      const chars = [...run];
      if (chars.length === 1) terms.push(run);
      for (let i = 0; i + 1 < chars.length; i++) terms.push(`${chars[i]}${chars[i + 1]}`);
      continue;
    }
    if (run.length > 64 || STOP.has(run)) continue;
    terms.push(run);
  }
  return terms;
}
