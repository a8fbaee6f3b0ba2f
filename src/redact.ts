/**
 * Removes secrets from pasted text before it is stored, logged, shown back or put in job data:
 * bearer headers, credentials in URLs, `password=`/`token:`-style values (base64 ones too), private
 * key blocks, JWTs and well-known token formats. Every pattern is linear-time (no nested quantifiers,
 * no overlapping alternatives under repetition); a test checks each with a ReDoS checker. A value has no
 * length limit (a limit let the part after it be shown): it ends each pattern, or what follows it cannot
 * be in it, so no value is read twice.
 */

import { commandLinePasswords } from './redact/commands.js';
import { deeper, pastSpaces, privateKeys, secretBlocks, secretData, secretFiles } from './redact/objects.js';
import { MARK, redactionPatterns } from './redact/patterns.js';
import { readable, tokenUser, urlSecrets } from './redact/urls.js';
import { errorAfter, errorWord, existing, harmless, keyWord, ownLine, ownWords, reference, unclosed, workingDirectory } from './redact/values.js';

/** The patterns, exported so the ReDoS test can check every one (src/redact/patterns.ts). */
export { redactionPatterns } from './redact/patterns.js';

/**
 * Authorization headers' credentials: everything after the scheme, whatever the scheme (OAuth, SSWS, Bot,
 * Splunk, Basic however short). In quotes (`-H "Authorization: Splunk …"`, `"Authorization": "OAuth …"`) the
 * credential runs to the closing quote; bare, to the next space, and on past a comma (Digest's and AWS's
 * `k=v, k=v`). The scheme stays, so the reader sees which it was; an error after the key is no scheme
 * ("authorization: failed to …").
 */
function authorizations(text: string): string {
  if (!/authorization/i.test(text)) return text;
  const header = redactionPatterns.authHeader;
  const parts: string[] = [];
  let shown = 0;
  header.lastIndex = 0;
  for (let m = header.exec(text); m; m = header.exec(text)) {
    const from = m.index + m[0].length;
    const end = credentialEnd(text, m.index, m[1]!, from);
    const credential = text.slice(from, end);
    // Read once: the next header is looked for after this one's credential.
    header.lastIndex = end;
    if (errorWord(m[2]!) || harmless(credential) || credential.startsWith('$') || credential.toLowerCase().startsWith('auth')) continue;
    parts.push(text.slice(shown, from), MARK);
    shown = end;
  }
  return shown === 0 ? text : parts.join('') + text.slice(shown);
}

/**
 * Where an authorization header's credential that starts at `from` ends: at the quote that closes the value
 * (opened after the key's separator, or before the key, as curl's `-H "…"` has it) or the line's end; bare, at
 * the next whitespace not after a comma.
 */
function credentialEnd(text: string, keyAt: number, head: string, from: number): number {
  const last = head[head.length - 1]!;
  const before = text[keyAt - 1];
  let quote = last === '"' || last === "'" ? last : '';
  // A quote before the key that does not close right after it (a JSON key's own quotes) opens the header's text.
  if (!quote && (before === '"' || before === "'") && head['authorization'.length] !== before) quote = before;
  let end = from;
  if (quote) {
    while (end < text.length && text[end] !== quote && text[end] !== '\n') end++;
    return end;
  }
  for (;;) {
    while (end < text.length && !' \t\r\n'.includes(text[end]!)) end++;
    const next = pastSpaces(text, end);
    if (text[end - 1] !== ',' || next >= text.length || text[next] === '\n' || text[next] === '\r') return end;
    end = next;
  }
}

/**
 * Whether a value is the scheme of an authorization header whose credential authorizations hid: bare, the mark
 * follows it (`Authorization: OAuth [redacted]`); quoted, it ends the value (`"OAuth [redacted]"`).
 */
function schemeKept(value: string, text: string, after: number): boolean {
  return value.endsWith(` ${MARK}`) || (text[after] === ' ' && text.startsWith(MARK, pastSpaces(text, after)));
}

/** How a text is read: `inSecret` when it is part of a Kubernetes Secret whose kind line is not in it. */
export interface RedactOptions {
  readonly inSecret?: boolean;
}

/**
 * A capitalised word of letters (Slack's "Basic Information" page): never Basic credentials, which are the
 * base64 of `user:password`, nor a token, which has digits or capitals inside.
 */
const titleWord = (s: string): boolean => /^[A-Z][a-z]+$/.test(s);

/** An XML element's text or value that is no secret: empty, a word such as `true`, a reference (`${env.…}`); a CDATA section is judged by what it holds. */
function xmlHarmless(value: string): boolean {
  const inner = (/^<!\[CDATA\[([^]*)\]\]>$/.exec(value)?.[1] ?? value).trim();
  return inner === '' || harmless(inner) || inner.startsWith('$');
}

/** The text with every secret-looking value replaced by `[redacted]`. */
export function redact(text: string, options: RedactOptions = {}): string {
  const p = redactionPatterns;
  return authorizations(privateKeys(secretFiles(urlSecrets(secretBlocks(secretData(commandLinePasswords(readable(text)), options.inSecret ?? false))))))
    .replace(p.bearer, (m, scheme: string) => (titleWord(m.slice(scheme.length).trimStart()) ? m : `${scheme} ${MARK}`))
    .replace(p.quotedUrlCredentials, (_m, userPart: string) => `${tokenUser(userPart)}:${MARK}@`)
    .replace(p.urlCredentials, (_m, userPart: string) => `${tokenUser(userPart)}:${MARK}@`)
    .replace(p.schemelessCredentials, (m, user: string, password: string) => (harmless(password) || password.startsWith('$') ? m : `${user}:${MARK}@`))
    .replace(p.nextLineSecret, (m, key: string, rest: string, value: string, at: number, whole: string) =>
      harmless(value.trim()) || reference(rest) || workingDirectory(key, value) || !deeper(whole, at, key) ? m : `${key}${MARK}${errorAfter(value)}`,
    )
    .replace(p.envNameValue, (m, key: string, value: string) => (harmless(value) ? m : `${key}${MARK}${value.slice(unclosed(value).length)}`))
    .replace(p.xmlSecret, (m, tag: string, attributes: string, value: string) => (xmlHarmless(value) ? m : `<${tag}${attributes}>${MARK}</${tag}>`))
    .replace(p.xmlNamedSecret, (m, named: string, _tag: string, _q: string, beforeValue?: string, _q2?: string, attribute?: string, beforeText?: string, text?: string) =>
      attribute !== undefined ? (xmlHarmless(attribute) ? m : `${named}${beforeValue}${MARK}${_q2}`) : xmlHarmless(text ?? '') ? m : `${named}${beforeText}${MARK}`,
    )
    .replace(p.yamlSecret, (m, key: string, value: string) => (harmless(value.trimEnd()) || workingDirectory(key, value) || ownLine(keyWord(key), value) ? m : `${key}${MARK}${errorAfter(value) || (value.endsWith(' ') ? ' ' : '')}`))
    .replace(p.keyValue, (m, word: string, rest: string, sep: string, value: string, at: number, whole: string) =>
      harmless(value) || reference(rest) || existing(word) || workingDirectory(`${word}${rest}`, value) || schemeKept(value, whole, at + m.length) || ownWords(`${word}${rest}`, value, whole.slice(at + m.length, at + m.length + 120))
        ? m
        : `${word}${rest}${sep}${MARK}`,
    )
    .replace(p.envSecret, (m, name: string, quote: string, value: string) => (harmless(value) || workingDirectory(name, value) ? m : `${name}${quote}${MARK}`))
    .replace(p.yamlEnvSecret, (m, name: string, quote: string, value: string) => (harmless(value) || workingDirectory(name, value) ? m : `${name}${quote}${MARK}`))
    .replace(p.camelSecret, (m, word: string, sep: string, value: string) => (harmless(value) || existing(word) ? m : `${word}${sep}${MARK}`))
    .replace(p.kubeconfigKey, (_m, key: string) => `${key}${MARK}`)
    .replace(p.awsConfigure, (_m, key: string) => `${key}${MARK}`)
    .replace(p.netrcPassword, (m, key: string, value: string) => (harmless(value) ? m : `${key}${MARK}`))
    .replace(p.cookieHeader, (_m, key: string) => `${key}${MARK}`)
    .replace(p.knownToken, MARK)
    .replace(p.flagSecret, (m, flag: string, open: string | undefined, quoted: string | undefined, close: string | undefined, bare: string | undefined) =>
      open ? `${flag}${open}${MARK}${close}` : harmless(bare ?? '') ? m : `${flag}${MARK}`,
    )
    .replace(p.proseSecret, (_m, words: string) => `${words}${MARK}`)
    .replace(p.awsPair, (_m, _id: string, sep: string) => `${MARK}${sep}${MARK}`)
    .replace(p.slackToken, MARK)
    .replace(p.githubToken, MARK)
    .replace(p.awsKey, MARK)
    .replace(p.jwt, MARK);
}

/**
 * A value a person typed, as an answer or a log line may repeat it: secrets hidden first (a token pasted in the
 * wrong place, a URL's password), then cut to `max` characters. Cut after redacting, so a cut never shortens a
 * secret below what the patterns recognise.
 */
export function shownBack(value: string, max = 60): string {
  const redacted = redact(value);
  // Nothing hidden: the value as typed, so what shows nothing (a NUL) is still there for the view to show escaped.
  return (redacted === readable(value) ? value : redacted).slice(0, max);
}
