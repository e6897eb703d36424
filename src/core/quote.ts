// How an error message quotes what a user typed: in full when it is short, else its start and
// its length, so a 100,000-character --set value gives a one-line error, not a screenful.

/** Characters of an input an error message shows before cutting it. */
export const QUOTE_MAX = 60;

/** `text` itself, or its first QUOTE_MAX characters, "…" and the length ("abc…" (100,000 characters)). */
export function shortText(text: string, max = QUOTE_MAX): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length.toLocaleString('en-US')} characters)`;
}

/** `text` as JSON (in double quotes), cut as shortText cuts it: "abc"… (100,000 characters). */
export function quoteInput(text: string, max = QUOTE_MAX): string {
  return text.length <= max
    ? JSON.stringify(text)
    : `${JSON.stringify(text.slice(0, max))}… (${text.length.toLocaleString('en-US')} characters)`;
}

/**
 * `s` as one word of a shell command on ONE line: bare when it needs no quoting, 'single-quoted'
 * when it holds no control character, else $'…' (ANSI-C quoting: bash, zsh, ksh, busybox sh and
 * POSIX.1-2024; not dash) with \n, \r, \t and \xHH escapes. A job array reads one line per job,
 * so a newline in a run's code must not start another line.
 */
export function shellQuote(s: string): string {
  if (/^[A-Za-z0-9_/.,:=@%+-]+$/.test(s)) return s;
  // eslint-disable-next-line no-control-regex
  if (!/[\x00-\x1f\x7f]/.test(s)) return `'${s.replace(/'/g, `'\\''`)}'`;
  const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\', "'": "\\'" };
  // eslint-disable-next-line no-control-regex
  return `$'${s.replace(/[\x00-\x1f\x7f\\']/g, (c) => named[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}'`;
}
