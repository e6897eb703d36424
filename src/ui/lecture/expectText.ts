// The lesson's "expected" text cut into clauses, so that the guide strip can show as many whole
// clauses as fit its line(s) and offer the rest in a popover, rather than a word cut with "…".

/**
 * The text's clauses, each with its punctuation: cut after ". ", "; ", ", " or ": " (inside
 * brackets too: a lesson's first bracket can be longer than the strip's line).
 */
export function clauses(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if ('.;,:'.includes(c) && text[i + 1] === ' ') {
      out.push(text.slice(start, i + 1));
      start = i + 2;
    }
  }
  if (start < text.length) out.push(text.slice(start));
  return out.filter((c) => c.trim() !== '');
}

/** The first `n` clauses, joined as they were written. */
export function firstClauses(all: readonly string[], n: number): string {
  return all.slice(0, n).join(' ');
}
