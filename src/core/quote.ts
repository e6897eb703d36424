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
  return text.length <= max ? JSON.stringify(text) : `${JSON.stringify(text.slice(0, max))}… (${text.length.toLocaleString('en-US')} characters)`;
}
