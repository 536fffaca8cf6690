// License keys are the buyers' credentials (DECISIONS.md "Privilege boundaries", "Safe by
// default"). Where text may carry one that its reader must not see whole (a log line, a
// note in an audit entry), what is shaped like a key, or like a good part of one, is cut
// to its first 5 characters. Shapes, any case, a character possibly percent-encoded:
//   - five-character groups joined by `-` (or `%2D`): three or more groups, or two with
//     a digit among them (so route words like `event-types` stay readable);
//   - an undashed run of 15 to 25 Crockford characters holding a digit and a letter, or of
//     exactly 25 (a key without its dashes).
// Text that is known to be a key (an id in a URL, a declared field) is cut whatever its shape.

/** What remains of a license key where it may not be shown whole. */
export const cutKey = (key: string): string => (key.length <= 5 ? key : `${key.slice(0, 5)}…`);

// A digit or letter, or its percent escape (%30-%39, %41-%5A, %61-%7A).
const CHAR = '(?:[0-9A-Za-z]|%(?:3[0-9]|[46][1-9A-Fa-f]|[57][0-9Aa]))';
const DASH = '(?:-|%2[Dd])';
// Not in the middle of a word (a UUID's groups are not a key's), but right after an escape (`%3D` of `=`).
const EDGE_BEFORE = '(?:(?<![0-9A-Za-z%])|(?<=%[0-9A-Fa-f]{2}))';
const EDGE_AFTER = '(?![0-9A-Za-z])';
// A run of groups (the last possibly short: a key cut off mid-group), or one undashed run.
const CANDIDATE = new RegExp(`${EDGE_BEFORE}(?:${CHAR}{5}(?:${DASH}${CHAR}{1,5})+|${CHAR}{15,25})${EDGE_AFTER}`, 'g');
// The cheap test first: most text has neither a dash after five word characters, nor a
// percent escape, nor a long run, so it costs one fast scan instead of the search above.
const HINT = /[0-9A-Za-z]{5}(?:-|%2[Dd])|%[0-9A-Fa-f]{2}|[0-9A-Za-z]{15}/;
const CROCKFORD = /^[0-9A-HJKMNP-TV-Z]+$/i;

function decodePercent(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Whether a candidate (already decoded) is a key or a part of one worth hiding. */
function keyLike(decoded: string): boolean {
  const groups = decoded.split('-');
  const compact = groups.join('');
  if (!/^[0-9A-Za-z]+$/.test(compact)) return false;
  if (groups.length >= 3) return true;
  const mixed = /[0-9]/.test(compact) && /[A-Za-z]/.test(compact);
  if (groups.length === 2) return mixed && CROCKFORD.test(compact);
  return CROCKFORD.test(compact) && (compact.length === 25 || mixed);
}

/** `text` with every key-shaped part cut to its first 5 characters (decoded: `%41BCDE-…` shows `ABCDE…`). */
export function cutKeyShapedText(text: string): string {
  if (!HINT.test(text)) return text;
  return text.replace(CANDIDATE, (match) => {
    const decoded = decodePercent(match);
    return keyLike(decoded) ? cutKey(decoded) : match;
  });
}
