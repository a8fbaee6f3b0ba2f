/**
 * Removes secrets from pasted text before it is stored, logged, shown back or put in job data:
 * bearer headers, credentials in URLs, `password=`/`token:`-style values (base64 ones too), private
 * key blocks, JWTs and well-known token formats. Every pattern is linear-time (no nested quantifiers,
 * no overlapping alternatives under repetition); a test checks each with a ReDoS checker.
 */

const MARK = '[redacted]';

/** The patterns, exported so the ReDoS test can check every one. */
export const redactionPatterns = {
  privateKey: /-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----[^-]{0,20000}-----END [A-Z ]{0,40}PRIVATE KEY-----/g,
  bearer: /\b(bearer|basic)[ \t]+[A-Za-z0-9._~+/=-]{8,}/gi,
  urlCredentials: /\b([a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@]{1,200}):[^\s@/]{1,200}@/gi,
  // `auth` takes authorization, auth_token, …, but not the words authentic(ity) and author(ity):
  // Bolt's "Failed to verify authenticity: signature mismatch" keeps its words.
  keyValue:
    // A quoted value runs to its closing quote, spaces and all ("Hunter 2 secret").
    /(?<![A-Za-z0-9])(password|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credentials?|auth(?!entic|or(?!iz)))([A-Za-z0-9_.-]{0,40})(["']?[ \t]{0,10}[:=][ \t]{0,10}["']?)((?<=")[^"\n]{1,4000}|(?<=')[^'\n]{1,4000}|(?<!["'])[^\s"',;}]{1,4000})/gi,
  // An environment variable whose name ends in the word (PGPASSWORD=, MYSQLPASSWORD=, DB_PASS=), which
  // keyValue's start-of-word anchor does not see.
  envSecret: /\b([A-Z][A-Z0-9_]{0,30}(?:PASSWORD|PASSWD|PASS|PWD|SECRET|TOKEN)=)([^\s"',;]{1,4000})/g,
  // A command-line flag with its value after a space: `--password Sup3r`, `--token abc`.
  flagSecret: /(--(?:password|passwd|token|secret|api-key|access-key)[ \t]+)(?!-)([^\s"']{1,4000})/gi,
  // A password in a sentence, when it looks like one (a digit or a symbol in it): "the password is Sup3r!".
  proseSecret: /\b(pass(?:word|wd|phrase)[ \t]+(?:is|was)[ \t]+["'`]?)([^\s"'`]{0,100}[0-9!@#$%^&*][^\s"'`]{0,100})/gi,
  // The secret that follows its access key id on the same line.
  awsPair: /\b((?:AKIA|ASIA)[0-9A-Z]{16})([\s:,;=|"']{1,10})([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/g,
  slackToken: /\bx(?:ox[abprs]|app)-[A-Za-z0-9-]{8,}/g,
  githubToken: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20,})/g,
  awsKey: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  // The lookbehind anchors a token at its start, so a long run of letters is scanned once, not from every place.
  jwt: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
} as const;

/** Values too plain to be a secret (`password: true`, `token: null`, a `${VAR}` reference). */
function harmless(value: string): boolean {
  return /^(?:true|false|null|none|undefined|bearer|basic|""|''|\*+|\[redacted\])$/i.test(value) || value.startsWith('${') || value.startsWith('<');
}

/** Tools whose `login` takes the password after `-p` (`docker login -u ci -p …`, `helm registry login … -p …`). */
const LOGIN_TOOLS = new Set(['docker', 'podman', 'nerdctl', 'buildah', 'skopeo', 'oras', 'helm', 'crane', 'regctl']);
/** Tools that take the password glued to `-p` (`mysql -u root -pSecret`); their `-P` is the port. */
const GLUED_TOOLS = new Set(['mysql', 'mysqldump', 'mysqladmin', 'mariadb']);

/**
 * Passwords given to a command line as `-p`: after a registry login's `-p`, and glued to mysql's. Elsewhere
 * `-p` is a port or a publish flag (psql, docker run) and is kept. Read token by token, a line at a time.
 */
function commandLinePasswords(text: string): string {
  if (!text.includes('-p')) return text;
  return text
    .split('\n')
    .map((line) => {
      if (!line.includes('-p')) return line;
      const parts = line.split(/([ \t]+)/);
      const base = (word: string): string => word.slice(word.lastIndexOf('/') + 1).toLowerCase();
      let login = false;
      let glued = false;
      let tool = false;
      for (let i = 0; i < parts.length; i += 2) {
        const word = parts[i]!;
        if (LOGIN_TOOLS.has(base(word))) tool = true;
        else if (tool && word === 'login') login = true;
        if (GLUED_TOOLS.has(base(word))) glued = true;
        if (login && word === '-p' && i + 2 < parts.length) {
          const value = parts[i + 2]!;
          const quote = value[0] === '"' || value[0] === "'" ? value[0] : '';
          if (!value.startsWith('-') && !harmless(value)) {
            // A quoted password may hold spaces: everything up to its closing quote goes.
            let end = i + 2;
            if (quote && !(value.length > 1 && value.endsWith(quote))) while (end + 2 < parts.length && !parts[end]!.endsWith(quote)) end += 2;
            const closing = quote && parts[end]!.endsWith(quote) ? quote : '';
            parts.splice(i + 2, end - i - 1, `${quote}${MARK}${closing}`);
          }
        } else if (glued && word.startsWith('-p') && word.length > 2 && !harmless(word.slice(2))) {
          parts[i] = `-p${MARK}`;
        }
      }
      return parts.join('');
    })
    .join('\n');
}

/** The text with every secret-looking value replaced by `[redacted]`. */
export function redact(text: string): string {
  const p = redactionPatterns;
  return commandLinePasswords(text)
    .replace(p.privateKey, `-----BEGIN PRIVATE KEY----- ${MARK} -----END PRIVATE KEY-----`)
    .replace(p.bearer, (_m, scheme: string) => `${scheme} ${MARK}`)
    .replace(p.urlCredentials, (_m, userPart: string) => `${userPart}:${MARK}@`)
    .replace(p.keyValue, (m, word: string, rest: string, sep: string, value: string) => (harmless(value) ? m : `${word}${rest}${sep}${MARK}`))
    .replace(p.envSecret, (m, name: string, value: string) => (harmless(value) ? m : `${name}${MARK}`))
    .replace(p.flagSecret, (m, flag: string, value: string) => (harmless(value) ? m : `${flag}${MARK}`))
    .replace(p.proseSecret, (_m, words: string) => `${words}${MARK}`)
    .replace(p.awsPair, (_m, _id: string, sep: string) => `${MARK}${sep}${MARK}`)
    .replace(p.slackToken, MARK)
    .replace(p.githubToken, MARK)
    .replace(p.awsKey, MARK)
    .replace(p.jwt, MARK);
}
