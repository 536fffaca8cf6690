// A receiver's answer (up to 2 KiB) cut to fit a table cell; the whole text stays one
// click away.

export interface Excerpt {
  short: string;
  truncated: boolean;
}

/** The first line, at most `max` characters, with an ellipsis when anything was left out. */
export function excerpt(text: string, max = 60): Excerpt {
  const trimmed = text.trim();
  const firstLine = trimmed.split(/\r?\n/, 1)[0] ?? '';
  if (firstLine.length <= max && firstLine.length === trimmed.length) return { short: trimmed, truncated: false };
  return { short: `${firstLine.slice(0, max).trimEnd()}…`, truncated: true };
}
