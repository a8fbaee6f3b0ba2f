/** Redaction of what is read through look-alike letters and invisible characters, and of URLs' credentials, queries and webhooks. */
import { secretKey } from './flags.js';
import { MARK, redactionPatterns } from './patterns.js';
import { harmless, workingDirectory } from './values.js';

/**
 * Full-width forms, mathematical letters and wide or non-breaking spaces read as what they look like (a
 * full-width '＝', a bold 𝗽, a no-break space after a key), what shows nothing goes (visible), and a key's name
 * spelled with look-alike letters reads as the name (keyName), so keys are seen; every other character, '…'
 * included, stays as it is. A text of printable ASCII (most are) is returned as it is.
 */
export function readable(text: string): string {
  const p = redactionPatterns;
  if (!p.mayHide.test(text)) return text;
  const plain = visible(text)
    .replace(p.fullWidth, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .replace(p.mathLetter, (c) => c.normalize('NFKC'))
    .replace(p.wideSpace, ' ');
  return p.lookAlike.test(plain) ? plain.replace(p.lookAlikeWord, keyName) : plain;
}

/** The text without what shows nothing (terminalSequence, escapedHidden, showsNothing): a key or a token cannot hide behind it. */
export function visible(text: string): string {
  const p = redactionPatterns;
  let out = text;
  if (out.includes('\u001b')) out = out.replace(p.terminalSequence, '');
  if (out.includes('\\')) out = out.replace(p.escapedHidden, '');
  return out.replace(p.showsNothing, '');
}

/** Cyrillic and Greek letters that look like Latin ones (and Turkish dotless i): `раssword` with Cyrillic р and а. */
export const CONFUSABLES = new Map(
  Object.entries({
    а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', ѕ: 's', і: 'i', ј: 'j', ԁ: 'd', ԛ: 'q', ԝ: 'w', һ: 'h', к: 'k', ı: 'i',
    А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', Х: 'X', Ѕ: 'S', І: 'I', Ј: 'J', У: 'Y', Ԛ: 'Q', Ԝ: 'W',
    α: 'a', ο: 'o', ρ: 'p', ν: 'v', υ: 'u', ι: 'i', κ: 'k', τ: 't', χ: 'x', ε: 'e',
    Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
  }),
);
/** Words in a key's name, lower case: a word made of look-alikes that reads as one of them is a key's name. */
export const KEY_WORDS = ['pass', 'pwd', 'secret', 'token', 'key', 'auth', 'credential', 'cookie', 'bearer', 'basic', 'session'];

/**
 * A word with look-alike letters, read as the key name it imitates when it imitates one (`раssword` → `password`),
 * so that the key is seen; any other word stays as it is (a Russian or Greek word has letters with no Latin look-alike).
 */
export function keyName(word: string): string {
  let folded = '';
  for (const c of word) {
    if (c <= '\x7f') folded += c;
    else {
      const latin = CONFUSABLES.get(c);
      if (latin === undefined) return word;
      folded += latin;
    }
  }
  const lower = folded.toLowerCase();
  return folded !== word && KEY_WORDS.some((w) => lower.includes(w)) ? folded : word;
}

/** Query keys that carry a credential whatever their ending: an API key, a signed URL's signature (Azure SAS's `sig`). */
export const QUERY_SECRET_KEYS = new Set(['key', 'sig']);

/** Whether a URL query's key carries a credential: `key`, `sig`, `X-Amz-Signature`, `access_token`, `api_key`, `client_secret`. */
export function queryKey(name: string): boolean {
  const lower = (name.includes('%') ? name.replace(redactionPatterns.percentByte, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))) : name).toLowerCase();
  return QUERY_SECRET_KEYS.has(lower) || lower.endsWith('signature') || secretKey(lower);
}

/** Token prefixes that say a URL's user is a token (GitHub's, GitLab's). */
export const TOKEN_PREFIXES = ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_', 'glpat-', 'gldt-'];

/** Whether a URL's user is a token: a known prefix, or a long run of letters and digits (an Azure DevOps or hex token); `git` and `jdoe` stay. */
export function urlToken(user: string): boolean {
  if (TOKEN_PREFIXES.some((prefix) => user.startsWith(prefix))) return true;
  return user.length >= 32 && /^[A-Za-z0-9_-]+$/.test(user) && /[0-9]/.test(user) && /[A-Za-z]/.test(user);
}

/** A URL's scheme and user, the user hidden when it is a token (`https://<40 hex>:x-oauth-basic@github.com`: GitHub's old tokens). */
export function tokenUser(userPart: string): string {
  const slashes = userPart.indexOf('://') + 3;
  return urlToken(userPart.slice(slashes)) ? `${userPart.slice(0, slashes)}${MARK}` : userPart;
}

/**
 * Secrets a URL or a connection string carries outside its password: a query's credential, a webhook's path,
 * a token as the user, a connection string's value with spaces. Each is read only when its mark is in the text.
 */
export function urlSecrets(text: string): string {
  const p = redactionPatterns;
  let out = text;
  if (out.includes('?') || out.includes('&')) {
    out = out.replace(p.queryPair, (m, lead: string, name: string, value: string) => (queryKey(name) && !harmless(value) && !value.startsWith('$') && !workingDirectory(name, value) ? `${lead}${name}=${MARK}` : m));
  }
  if (out.includes('hook')) out = out.replace(p.webhookPath, (_m, path: string) => `${path}${MARK}`);
  if (out.includes('://')) out = out.replace(p.urlUser, (m, user: string) => (urlToken(user) ? `://${MARK}@` : m));
  if (out.includes(';')) {
    out = out.replace(p.connectionSecret, (m, key: string, value: string) => (value.trimStart().startsWith('$') || harmless(value.trim()) ? m : `${key}${MARK}`));
  }
  return out;
}
