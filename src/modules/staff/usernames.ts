// Usernames that cannot impersonate each other (DECISIONS.md, "Privilege boundaries" and
// "Safe by default"): only characters of UTS #39's General Security Profile
// (Identifier_Status=Allowed), no stray combining marks, no mixed look-alike scripts; and
// unique twice over: after Unicode NFKC normalisation and case folding (`username_key`),
// and by UTS #39 confusable skeleton, taken before case folding (`username_skeleton`).
// Both columns have a unique index, so racing registrations cannot both win. The account
// keeps the spelling it registered with.
import unhomoglyph from 'unhomoglyph';
import { ALLOWED_RANGES } from './identifier-status.generated.js';

/** Control, format (zero-width, bidi), whitespace and default-ignorable characters. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Zs}\p{White_Space}\p{Default_Ignorable_Code_Point}]/u;

/** Scripts whose letters look alike: a name mixing them (Latin `b`, Cyrillic `о`) is a homograph. */
const LOOKALIKE_SCRIPTS = [/\p{Script=Latin}/u, /\p{Script=Cyrillic}/u, /\p{Script=Greek}/u, /\p{Script=Armenian}/u, /\p{Script=Cherokee}/u];

const MARK = /^\p{M}$/u;
const BASE = /^[\p{L}\p{N}]$/u;
/** Marks no script owns (the generic diacritics U+0300…): they must compose with their letter. */
const GENERIC_MARK = /^\p{Script_Extensions=Inherited}$/u;
/** UTS #39 §5.4: more nonspacing marks in a row than this is refused. */
const MAX_MARKS_IN_A_ROW = 4;

/**
 * NFKC, then full case folding (upper then lower case folds `ß` to `ss` as Unicode's
 * CaseFolding does), then NFKC again since case mapping can denormalise.
 */
export function usernameKey(username: string): string {
  return username.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}

/**
 * UTS #39 skeleton: NFD, each character replaced by its prototype from Unicode's
 * confusables.txt (the `unhomoglyph` package's copy of it), NFD again. Equal skeletons
 * look alike (`рорѕ` and `pops`). Taken on the name as typed, before case folding:
 * folding first would part look-alikes such as `I` and `l`.
 */
export function usernameSkeleton(username: string): string {
  return unhomoglyph(username.normalize('NFD')).normalize('NFD');
}

/** Whether the code point's UTS #39 Identifier_Status is Allowed (binary search over the ranges). */
export function isAllowedInIdentifier(codePoint: number): boolean {
  let low = 0;
  let high = ALLOWED_RANGES.length / 2 - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (codePoint < ALLOWED_RANGES[2 * mid]!) high = mid - 1;
    else if (codePoint > ALLOWED_RANGES[2 * mid + 1]!) low = mid + 1;
    else return true;
  }
  return false;
}

const codePointName = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * A combining mark with nothing to sit on (first, or after punctuation), the same mark
 * twice, more than four in a row, or a generic mark that composes with no letter
 * (`a` + U+0335 overlay): the first such mark, or null.
 */
function strayMark(username: string): string | null {
  let previous = '';
  let run = 0;
  for (const char of username.normalize('NFD')) {
    if (MARK.test(char)) {
      if (run === 0 && !BASE.test(previous)) return char;
      if (char === previous || ++run > MAX_MARKS_IN_A_ROW) return char;
    } else {
      run = 0;
    }
    previous = char;
  }
  for (const char of username.normalize('NFC')) if (MARK.test(char) && GENERIC_MARK.test(char)) return char;
  return null;
}

/** Why `username` cannot be registered, or null when it can. */
export function usernameProblem(username: string): string | null {
  if (INVISIBLE.test(username) || INVISIBLE.test(username.normalize('NFKC'))) {
    return 'username must not contain control, format, whitespace or invisible characters';
  }
  const restricted = [...username].find((char) => !isAllowedInIdentifier(char.codePointAt(0)!));
  if (restricted) {
    return `username may contain only characters that Unicode allows in identifiers (UTS #39 General Security Profile); ${codePointName(restricted)} is not one`;
  }
  const mark = strayMark(username);
  if (mark) return `username has a stray combining mark (${codePointName(mark)})`;
  const scripts = LOOKALIKE_SCRIPTS.filter((script) => script.test(username.normalize('NFKC'))).length;
  if (scripts > 1) return 'username must not mix letters of Latin, Cyrillic, Greek, Armenian or Cherokee script';
  return null;
}
