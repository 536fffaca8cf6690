// Usernames that cannot impersonate each other (DECISIONS.md, "Privilege boundaries"):
// unique after Unicode NFKC normalisation and case folding, and free of characters that
// render as nothing or as blank space. The account keeps the spelling it registered
// with; `username_key` (unique index) holds the folded form that decides clashes.

/** Control, format (zero-width, bidi), whitespace and default-ignorable characters. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Zs}\p{White_Space}\p{Default_Ignorable_Code_Point}]/u;

/** Scripts whose letters look alike: a name mixing them (Latin `b`, Cyrillic `о`) is a homograph. */
const LOOKALIKE_SCRIPTS = [/\p{Script=Latin}/u, /\p{Script=Cyrillic}/u, /\p{Script=Greek}/u, /\p{Script=Armenian}/u, /\p{Script=Cherokee}/u];

/**
 * NFKC, then full case folding (upper then lower case folds `ß` to `ss` as Unicode's
 * CaseFolding does), then NFKC again since case mapping can denormalise.
 */
export function usernameKey(username: string): string {
  return username.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}

/** Why `username` cannot be registered, or null when it can. */
export function usernameProblem(username: string): string | null {
  if (INVISIBLE.test(username) || INVISIBLE.test(username.normalize('NFKC'))) {
    return 'username must not contain control, format, whitespace or invisible characters';
  }
  const scripts = LOOKALIKE_SCRIPTS.filter((script) => script.test(username.normalize('NFKC'))).length;
  if (scripts > 1) return 'username must not mix letters of Latin, Cyrillic, Greek, Armenian or Cherokee script';
  return null;
}
