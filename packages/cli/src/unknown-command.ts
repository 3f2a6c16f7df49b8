/** The message for `tandem WORD` when WORD is no command, with the nearest command when one is close. */
export function unknownCommandMessage(word: string, commands: string[]): string {
  const near = nearest(word, commands);
  return `unknown command "${word}"${near ? ` (did you mean \`tandem ${near}\`?)` : ''}; \`tandem help\` lists the commands`;
}

function nearest(word: string, commands: string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of commands) {
    const distance = editDistance(word.toLowerCase(), name);
    if (!best || distance < best.distance) best = { name, distance };
  }
  return best && best.distance <= Math.max(1, Math.floor(best.name.length / 3)) ? best.name : undefined;
}

/** Levenshtein distance with adjacent transpositions counted as one edit. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, d[i - 2]![j - 2]! + 1);
      d[i]![j] = value;
    }
  }
  return d[a.length]![b.length]!;
}
