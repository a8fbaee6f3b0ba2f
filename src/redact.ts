/**
 * Removes secrets from pasted text before it is stored, logged, shown back or put in job data:
 * bearer headers, credentials in URLs, `password=`/`token:`-style values (base64 ones too), private
 * key blocks, JWTs and well-known token formats. Every pattern is linear-time (no nested quantifiers,
 * no overlapping alternatives under repetition); a test checks each with a ReDoS checker. A value has no
 * length limit (a limit let the part after it be shown): it ends each pattern, or what follows it cannot
 * be in it, so no value is read twice.
 */

const MARK = '[redacted]';

/** The patterns, exported so the ReDoS test can check every one. */
export const redactionPatterns = {
  // A private key block's start and end lines: any kind (RSA, EC, OpenSSH, PGP's "… KEY BLOCK"), any case, four
  // or five dashes. privateKeys reads the body between them.
  privateKeyBegin: /-{4,5}BEGIN [A-Z ]{0,40}PRIVATE KEY(?: BLOCK)?-{4,5}/gi,
  privateKeyEnd: /-{4,5}END [A-Z ]{0,40}PRIVATE KEY(?: BLOCK)?-{4,5}/iy,
  // Not the words after them ("basic authentication").
  bearer: /\b(bearer|basic)[ \t]+(?!auth)[A-Za-z0-9._~+/=-]{8,}/gi,
  // The user may be empty (`redis://:secret@redis:6379`); the password may hold an '@' (up to the last before the
  // host) and a '/' (not '//', where the next URL starts); a port and a path (`:443/@scope`) are no password.
  urlCredentials: /\b([a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@]*):(?![0-9]{1,5}\/)(?:[^\s/]|\/(?!\/))+@/gi,
  // A quoted URL's password may hold spaces too (`"postgres://app:Sup3r S3cret@db/app"`): up to the last '@' in its quotes.
  quotedUrlCredentials: /(["'][a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@"']*):(?![0-9]{1,5}\/)[^"'\n]*@/gi,
  // A URL query's pair (`?key=…`, `&sig=…`, `&amp;X-Amz-Signature=…`); queryKey says which keys carry a credential.
  // The value ends at the next pair.
  // A key may be percent-encoded (`client%5Fsecret`).
  queryPair: /([?&](?:amp;)?)([A-Za-z][A-Za-z0-9_.%-]{0,63})=([^&\s#"'<>)]+)/g,
  // A webhook whose path is its secret: Slack's, Discord's (after the webhook's id), Microsoft 365's, Zapier's.
  webhookPath: /\b((?:hooks\.slack\.com\/(?:services|workflows|triggers)|discord(?:app)?\.com\/api\/webhooks\/[0-9]{1,30}|outlook\.office(?:365)?\.com\/webhook|webhook\.office\.com\/webhookb2|hooks\.zapier\.com\/hooks\/catch)\/)[^\s"'<>)]+/gi,
  // A URL's user with no password after it (`https://ghp_…@github.com`); urlToken says whether it is a token.
  // It starts at the `://` (a literal the engine finds fast), not at every word that could be a scheme.
  urlUser: /:\/\/([^\s:/@"'<>]+)@/g,
  // A connection string's secret runs to its `;`, spaces and all (ADO.NET's `…;Password=Hunter 2;`, Azure's
  // `;AccountKey=…;`, `;SharedAccessSignature=sv=…&sig=…`).
  connectionSecret: /(;[ \t]{0,10}(?:password|pwd|accountkey|sharedaccesskey|sharedaccesssignature)[ \t]{0,10}=)((?:\\.|[^;\n"\\])+)/gi,
  // `auth` takes authorization, auth_token, …, but not the words authentic(ity) and author(ity):
  // Bolt's "Failed to verify authenticity: signature mismatch" keeps its words.
  keyValue:
    // A quoted value runs to its closing quote, spaces and all ("Hunter 2 secret"), and on over a line's end that
    // a backslash escapes; after a JSON string's escaped quote (`password=\\"…\\"`), to the next escaped one.
    // An escaped quote inside a quoted value stays inside it; Ruby's `=>` is a separator; an object or a list
    // (`"auths": {…}`) is no value of its own. A bare value runs to the next space: a comma, a semicolon, a quote
    // or a brace in it is the secret's (`password=Sup3r,S3cret`); a double quote ends it (a JSON string's end).
    // A word glued before a long key's word is the key's (libpq's `sslpassword=`, `dbpassword=`, a colour's
    // letter before it).
    /(?<![A-Za-z0-9])((?:[a-z]{1,20}(?=pass(?:word|wd|phrase)|secret|token))?(?:password|passwd|passphrase|pass|pwd|secret|token|identitytoken|registrytoken|api[_-]?key|apikey|access[_-]?key|private[_-]?key|accountkey|sessionid|credentials?|auth(?!entic|or(?!iz))))([A-Za-z0-9_.-]{0,40})(\\?["']?[ \t]{0,10}(?:=>|[:=])[ \t]{0,10}\\?["']?)((?<=\\")(?:[^"\\\n]|\\(?!"))+|(?<=[^\\]")(?:\\\r?\n|\\.|[^"\\\n])+|(?<=')(?:\\\r?\n|\\.|[^'\\\n])+|(?<!["'])[^\s"',;}{[][^\s"]*)/gi,
  // An environment variable whose name ends in the word (PGPASSWORD=, MYSQLPASSWORD=, DB_PASS=), which
  // keyValue's start-of-word anchor does not see.
  // Quoted too, and with a JSON string's escaped quote (`PGPASSWORD='…'`, `PGPASSWORD=\\"…\\"`).
  // Its value may be on the next line after a backslash (`PGPASSWORD=\` ↵ `Sup3r psql …`).
  // Quoted, it runs to its closing quote, spaces and all (`PGPASSWORD="correct horse battery staple"`); after a JSON
  // string's escaped quote, to the next one; bare, to the next space (a `;` in it is the secret's).
  envSecret: /\b([A-Z][A-Z0-9_]{0,30}(?:PASSWORD|PASSWD|PASS|PWD|SECRET|TOKEN)=)((?:\\\r?\n[ \t]{0,40})?\\?["']?)((?<=\\["'])(?:[^"'\\\n]|\\(?!["']))+|(?<=[^\\]")(?:\\.|[^"\\\n])+|(?<=[^\\]')[^'\n]+|(?<!["'])(?:[^\s"\\]|\\(?!["']))+)/g,
  // A command-line flag with its value after a space: `--password Sup3r`, `--token abc`, `--password 'a b'`.
  // A command-line flag with its value after a space: `--password Sup3r`, `--token abc`, `--password 'a b'`
  // (any long flag that ends in such a word is read word by word: commandLinePasswords).
  flagSecret: /(--(?:password|passwd|token|secret|api-key|access-key)[ \t]+)(?:(["'])([^"'\n]+)(["'])|(?![-"'])([^\s"']+))/gi,
  // A netrc's password, after its machine's name and login (`machine r.io login bob password …`, a line each
  // too): the machine says it is a netrc, not a sentence's "login & password and …".
  netrcPassword: /(\b(?:machine[ \t]+[^\s]+|default)(?:\s+login[ \t]+[^\s]+)?\s+password[ \t]+)([^\s]+)/g,
  // The AWS CLI's `configure set aws_secret_access_key …` (and the session token).
  awsConfigure: /\b((?:aws_secret_access_key|aws_session_token)[ \t]+)([^\s"']+)/gi,
  // A cookie header's values (`Cookie: sessionid=…; csrftoken=…`, `Set-Cookie: …`).
  cookieHeader: /\b((?:set-)?cookie["']?[ \t]{0,4}:[ \t]{0,4})([^\n"']+)/gi,
  // The value of a secret key on the line after it: a YAML block (`password: |`) or a bare continuation.
  nextLineSecret: /((?:^|[ \t"'])(?:password|passwd|pwd|secret|token)([A-Za-z0-9_.-]{0,40}):[ \t]{0,4}(?:[|>][-+]?)?[ \t]{0,4}\r?\n[ \t]{1,40})([^\s"'#-][^\n]*)/gim,
  // A YAML block scalar under a secret's key (`secret: |`, `password: >-`): every line of the block is the value.
  secretBlockKey: /^[ \t]{0,40}(?:-[ \t]{1,4})?["']?(?:password|passwd|pwd|secret|token)([A-Za-z0-9_.-]{0,40})["']?[ \t]{0,4}:[ \t]{0,4}[|>][-+0-9]{0,2}[ \t]{0,4}\r?$/im,
  // A Kubernetes env var whose name says it is a secret, its value on the next line.
  // Its value on the next line, or after a comma in JSON or YAML's flow form (`{"name":"DB_PASSWORD","value":"…"}`,
  // `{name: DB_PASSWORD, value: …}`); quoted, to its closing quote.
  envNameValue: /(name["']?[ \t]{0,4}:[ \t]{0,4}["']?[A-Za-z0-9_]{0,40}(?:PASSWORD|PASSWD|PASS|PWD|SECRET|TOKEN|KEY)["']?[ \t]{0,4}(?:,|\r?\n)[ \t]{0,40}["']?value["']?[ \t]{0,4}:[ \t]{0,4}["']?)((?<=")(?:\\.|[^"\\\n])+|(?<=')[^'\n]+|(?<!["'])[^\s"']+)/gi,
  // Tokens whose format names them: Google API keys, Stripe and OpenAI keys, SendGrid, npm, Hugging Face, GitLab's
  // runner/deploy/trigger/agent tokens, Docker Hub's personal and organisation access tokens.
  knownToken: /\b(?:AIza[0-9A-Za-z_-]{30,}|[sr]k_(?:live|test)_[0-9A-Za-z]{10,}|sk-(?:proj-)?[A-Za-z0-9_-]{20,}|SG\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}|npm_[A-Za-z0-9]{20,}|hf_[A-Za-z0-9]{20,}|gl(?:rt|dt|cbt|ptt|soat|ft|agent)-[A-Za-z0-9_-]{10,}|dckr_(?:pat|oat)_[A-Za-z0-9_-]{10,})/g,
  // An authorization header up to its scheme, any scheme (`Authorization: OAuth …`, `Authorization: SSWS …`, a
  // short `Basic YTpi`); authorizations hides what follows it.
  authHeader: /\b(authorization["']?[ \t]{0,10}[:=][ \t]{0,10}["']?)([A-Za-z][A-Za-z0-9_.-]{0,30})[ \t]+(?=\S)/gi,
  // A camelCase key that ends in the word (`clientSecret: …`, `adminPassword=…`, `accessToken: …`, helm's
  // `x.dbPass=…`, `globalSecretKey: …`), which keyValue's start-of-word anchor does not see.
  camelSecret: /(?<![A-Za-z0-9])([A-Za-z][a-z0-9]{0,30}(?:Pass(?:word|wd|phrase)?|Pwd|Secret(?:Key)?|Token|ApiKey|AccessKey|PrivateKey|Credentials?|Creds))(["']?[ \t]{0,10}[:=][ \t]{0,10}["']?)((?<=")[^"\n]+|(?<=')[^'\n]+|(?<!["'])[^\s"',;}]+)/g,
  // A YAML key's unquoted value runs to the end of its line or a comment (`password: hunter 2x`).
  yamlSecret: /^([ \t]{0,40}(?:-[ \t]{1,4})?(?:password|passwd|pwd|secret|token|api[_-]?key)[ \t]{0,4}:[ \t]{1,10})([^"'\s#$<|>][^\n#]*)/gim,
  // A YAML key in capitals that ends in the word (`DB_PASS: …`, `REDIS_PASSWORD: "…"`), at the start of a line.
  yamlEnvSecret: /^([ \t]{0,40}(?:-[ \t]{1,4})?[A-Z][A-Z0-9_]{0,30}(?:PASSWORD|PASSWD|PASS|PWD|SECRET|TOKEN):[ \t]{1,10})(["']?)([^\s"',;]+)/gm,
  // A kubeconfig's client key and token (`client-key-data: LS0t…`).
  kubeconfigKey: /\b(client-key-data:[ \t]{0,10})([A-Za-z0-9+/=]{8,})/g,
  // A password in a sentence, when it looks like one (a digit or a symbol in it): "the password is Sup3r!".
  // Its first part cannot hold the digit or symbol, so the word is read once whatever its length.
  proseSecret: /\b(pass(?:word|wd|phrase)[ \t]+(?:is|was)[ \t]+["'`]?)([^\s"'`0-9!@#$%^&*]*[0-9!@#$%^&*][^\s"'`]*)/gi,
  // The secret that follows its access key id on the same line.
  awsPair: /\b((?:AKIA|ASIA)[0-9A-Z]{16})([\s:,;=|"']{1,10})([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/g,
  // Slack's bot, user, app, refresh, client (`xoxc-`) and cookie (`xoxd-`, often percent-encoded) tokens.
  slackToken: /\bx(?:ox[abcdeprs]|app)-[A-Za-z0-9%-]{8,}/g,
  githubToken: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20,})/g,
  awsKey: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  // A percent-encoded byte of a URL query's key.
  percentByte: /%([0-9A-Fa-f]{2})/g,
  // Where an error's sentence starts after a value on the same line: a level or an error's word and a colon, or "failed to".
  errorStart: /[ \t](?:(?:error|fatal|panic|failed|unable|cannot):|failed to[ \t])/i,
  // The lookbehind anchors a token at its start, so a long run of letters is scanned once, not from every place.
  // Forms that only look different: full-width ASCII, and spaces other than the plain one.
  fullWidth: /[\uff01-\uff5e]/g,
  wideSpace: /[\u00a0\u2000-\u200a\u202f\u205f\u3000]/g,
  // What shows nothing: terminal sequences (a colour, a title), and as a JSON string writes them (`\u001b[1m`,
  // a zero-width space's `\u200b`, in a line that is no record the evidence parses);
  // controls other than tab and line break (a carriage return not before one, a bell), the Unicode format
  // characters (zero-width ones, invisible operators, the Mongolian vowel separator), the grapheme joiner,
  // variation selectors and Hangul fillers. A key or a token with one inside is read without it.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  terminalSequence: /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]{0,4096}(?:\u0007|\u001b\\)?/g,
  escapedHidden: /\\(?:(?:u001b|x1b|033)\[[0-9;?]*[ -/]*[@-~]|u(?:00ad|034f|061c|180e|200[b-f]|202[a-e]|206[0-9a-f]|feff))/gi,
  // eslint-disable-next-line no-control-regex, no-misleading-character-class -- each control and joiner on its own is the point
  showsNothing: /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\ufe00-\ufe0f\uffa0\p{Cf}]|\r(?!\n)/gu,
  // Mathematical letters and digits (bold, italic, sans-serif, …) and circled letters, read as the Latin ones
  // they are drawn from.
  mathLetter: /[\u{1d400}-\u{1d7ff}\u24b6-\u24e9]/gu,
  // A text that may hold any of these: a character outside printable ASCII but tab and line break, or a backslash.
  mayHide: /[^\t\n\u0020-\u007e]|\\/,
  // A Cyrillic or Greek letter (or a dotless i), and a word that may hold one: read through CONFUSABLES.
  lookAlike: /[\u0131\u0370-\u03ff\u0400-\u052f]/,
  lookAlikeWord: /[A-Za-z0-9_\u0131\u0370-\u03ff\u0400-\u052f-]+/g,
  // Short ones too (`eyJhbGciOi.eyJzdWIi.c2ln`), an unsigned one's empty signature, and an encrypted one's five
  // parts (its second may be empty).
  jwt: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+){0,2}/g,
  // A registry's or a TLS key's file as a Secret holds it (`.dockerconfigjson: eyJ…`, `tls.key: LS0t…`), even
  // without the Secret around it.
  secretFileKey: /((?<![A-Za-z0-9_.-])(?:\.dockerconfigjson|\.dockercfg|tls\.key|ssh-privatekey)["']?[ \t]{0,10}:[ \t]{0,10}["']?)[A-Za-z0-9+/=_-]+/g,
  // A Secret's data in JSON (`kubectl get secret -o json`, a last-applied annotation): the object after `"data":`,
  // up to its end or the text's; jsonStringValue reads each value in it.
  jsonSecretData: /("(?:data|stringData)"[ \t]{0,10}:[ \t]{0,10}\{)([^{}]*)/g,
  jsonStringValue: /("[^"\\\n]{1,253}"[ \t]{0,10}:[ \t]{0,10}")((?:\\.|[^"\\\n])*)"/g,
  jsonSecretKind: /"kind"[ \t]{0,10}:[ \t]{0,10}"Secret"/,
} as const;

/**
 * What an error chain says after a key-like word ("failed to authorize: failed to fetch oauth token: 401",
 * "credentials: exec: …", "secret.yaml:12:5)"): an error's own word, a status or a position, never a secret.
 */
function errorWord(value: string): boolean {
  return /^(?:failed|failure|error|invalid|expired|forbidden|unauthorized|denied|required|missing|not|no|unknown|exec|timeout|empty|unexpected|unable|cannot|decoding|authentication|rejected|refused|[0-9][0-9:.()]{0,8})[:,)\]]?$/i.test(value);
}

/**
 * Whether a value of several words is an error's sentence ("authentication failed for user", the next line's
 * "ERROR: database … is being accessed"): its first word starts one. Not `no` or `not`, which a passphrase may
 * start with ("no more secrets").
 */
function errorSentence(value: string): boolean {
  const space = value.search(/[ \t]/);
  return space > 0 && /^(?:failed|failure|error|invalid|expired|forbidden|unauthorized|denied|required|missing|unknown|timeout|unexpected|unable|cannot|decoding|authentication|rejected|refused):?$/i.test(value.slice(0, space));
}

/**
 * The part of a value read to its line's end where an error's sentence starts (` ERROR: database …`, ` Failed to
 * pull image …`): a log's next words on the value's line, shown. Empty when none starts in it.
 */
function errorAfter(value: string): string {
  const at = value.search(redactionPatterns.errorStart);
  return at < 0 ? '' : value.slice(at);
}

/** Words a sentence's verb starts with after a name: "regcred is missing", "secrets is forbidden", "x does not exist". */
const PREDICATES = new Set(['is', 'was', 'are', 'were', 'has', 'have', 'had', 'does', 'did', 'could', 'can', 'cannot', 'not']);
/** A Kubernetes object's name (a DNS subdomain): lower case, digits, '-' and '.'. */
const OBJECT_NAME = /^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?$/;

/**
 * Whether a value reads as a Secret's name as people give them: words (`regcred`, `secrets`), or parts joined by
 * '-' or '.' (`db-credentials`, `default-token-x2x5z`). A single run of letters and digits (`abc123`, a GitHub
 * client secret's 40 hex digits) reads as a secret.
 */
function objectName(value: string): boolean {
  return OBJECT_NAME.test(value) && (/^[a-z]+$/.test(value) || value.includes('-') || value.includes('.'));
}

/**
 * Whether a one-word value is the error's own words, read with the words after it on its line (`after`):
 * - after a Secret's key, which names the Kubernetes object, an object's name the error goes on about
 *   ("secret: regcred is missing", "*v1.Secret: secrets is forbidden", "Secret: regcred (kubernetes.io/…)");
 *   under any other key a value the same words follow stays a secret ("password: hunter is wrong");
 * - the next part of an error chain, a lower-case word and a colon with an error's word after it
 *   ("in secret: tls: private key does not match");
 * - the shell's "command not found" ("bash: password: command not found").
 */
function ownWords(key: string, value: string, after: string): boolean {
  const words = after.slice(0, 120).trim().split(/[ \t]+/);
  if (/^[a-z]+:$/.test(value) && words.slice(0, 6).some(errorWord)) return true;
  if (value === 'command' && words[0] === 'not' && words[1]?.startsWith('found')) return true;
  if (key.toLowerCase() !== 'secret' || !objectName(value)) return false;
  const [verb, next] = words;
  return verb !== undefined && (verb.startsWith('(') || (PREDICATES.has(verb) && (verb === 'not' || verb === 'cannot' || errorWord(next ?? ''))));
}

/** The key's word in a matched key and its separator (`  - Secret: ` → `Secret`). */
function keyWord(key: string): string {
  let word = key.trim();
  if (word.startsWith('-')) word = word.slice(1).trimStart();
  return word.endsWith(':') ? word.slice(0, -1).trimEnd() : word;
}

/** Whether a value of a line's words is the error's own (ownWords), its first word read with the words after it. */
function ownLine(key: string, value: string): boolean {
  const space = value.search(/[ \t]/);
  return space > 0 && ownWords(key, value.slice(0, space), value.slice(space));
}

/** How a key that starts with a secret's word ends when it names where a secret is, not the secret (`secretName`, `token_file`, `passwordSecret.name`). */
const REFERENCE_ENDINGS = ['name', 'names', 'ref', 'file', 'path', 'dir', 'url', 'uri', 'endpoint', 'namespace', 'type'];

/** Whether what follows a secret's word in a key makes it a reference: `secretName: orchestrator-tls`, `secretKeyRef`, `token_url`. */
function reference(rest: string): boolean {
  const lower = rest.toLowerCase();
  return REFERENCE_ENDINGS.some((end) => lower.endsWith(end));
}

/** Whether a key names a Secret that exists already, not a secret (`existingSecret: pg-auth`, a chart's convention). */
function existing(key: string): boolean {
  return key.toLowerCase().startsWith('existing');
}

/** The shell's working directories: `PWD=/app`, `pwd=/home/user/x` and `OLDPWD` name a directory, not a password. */
const DIRECTORY_KEYS = new Set(['pwd', 'oldpwd']);

/** Whether a key and its value are a working directory: the shell's own name and a path (`/app`, `~/x`, `C:\\x`). */
function workingDirectory(key: string, value: string): boolean {
  let name = key.trim().toLowerCase();
  while (name !== '' && ':="\' '.includes(name[name.length - 1]!)) name = name.slice(0, -1);
  // The key's last word: a YAML item's dash or the line before it (nextLineSecret's key) are not its name.
  if (!DIRECTORY_KEYS.has(name.slice(Math.max(name.lastIndexOf(' '), name.lastIndexOf('\n')) + 1))) return false;
  const path = value[0] === '"' || value[0] === "'" ? value.slice(1) : value;
  return path.startsWith('/') || path.startsWith('~') || (path[1] === ':' && (path[2] === '\\' || path[2] === '/'));
}

/** Values too plain to be a secret (`password: true`, `token: null`, a `${VAR}` reference, a YAML block's `|`: its lines are the value). */
function harmless(value: string): boolean {
  return /^(?:true|false|null|none|undefined|bearer|basic|token|digest|negotiate|""|''|\*+|\[redacted\]|\\|[|>][-+]?)$/i.test(unclosed(value)) || value.startsWith('${') || value.startsWith('<') || errorWord(value) || errorSentence(value);
}

/** Characters that close what a bare value stands in (`"password": null,`, `{token: none}`), read past at its end. */
const CLOSERS = ',;})]';

/** A bare value without the closers at its end: a bare value runs to the next space, and takes them with it. */
function unclosed(value: string): string {
  let end = value.length;
  while (end > 0 && CLOSERS.includes(value[end - 1]!)) end--;
  return value.slice(0, end);
}

/** Tools that take the password after `-p` without a `login` word (`sshpass -p …`, `mongosh -u admin -p …`). */
const DASH_P_TOOLS = new Set(['sshpass', 'mongo', 'mongosh', 'mongodump', 'mongorestore', 'mongoexport', 'mongoimport']);
/**
 * Tools' short flags whose value is a secret: redis-cli's `-a` (the password), openssl's `-k` and `-K` (a
 * password, the raw key), ssh-keygen's `-N` and `-P` (the new and the old passphrase).
 */
const SECRET_SHORT_FLAGS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['redis-cli', new Set(['-a'])],
  ['openssl', new Set(['-k', '-K'])],
  ['ssh-keygen', new Set(['-N', '-P'])],
]);
/** Tools that take the password glued to `-p` (`mysql -u root -pSecret`); their `-P` is the port. */
const GLUED_TOOLS = new Set(['mysql', 'mysqldump', 'mysqladmin', 'mariadb', 'mysqlsh']);
/** Tools that take `user:password` after `-u` or `--user` (`curl -u admin:…`). */
const USER_PASS_TOOLS = new Set(['curl']);
/** Characters around a command word that belong to the shell, not to the word (`$(docker`, `"docker`, `build;docker`). */
const SHELL_PUNCTUATION = '"\'`$();&|{}';
/** Characters that end an unquoted value and belong to what surrounds it (`-p secret)`, `-p secret"`). */
const VALUE_END = '"\'`);&|}';

/**
 * Long flags whose name ends in one of these carry a secret as their value (`--pass`, `--auth-token`,
 * `--client-secret`, `--src-creds`, az's `--account-key`, `--auth`).
 */
const SECRET_FLAG_ENDINGS = ['password', 'passwd', 'passphrase', 'pass', 'token', 'secret', 'api-key', 'access-key', 'account-key', 'secret-key', 'creds', 'credentials', 'auth'];
/** How a switch that turns a secret off starts: the word after `--no-auth` is the command's own. */
const SWITCH_OFF = ['--no-', '--skip-', '--disable-', '--without-'];

/** Whether a word is a long flag (no `=value` glued) whose name ends in a secret's word. */
function secretFlag(word: string): boolean {
  const lower = word.toLowerCase();
  return lower.startsWith('--') && !lower.includes('=') && SECRET_FLAG_ENDINGS.some((end) => lower.endsWith(end)) && !SWITCH_OFF.some((off) => lower.startsWith(off));
}

/** What a command line has said so far about the flags that carry a password. */
interface CommandState {
  /** A secret flag ended the last line, continued by a backslash: its value is the next line's first word. */
  pending: boolean;
  command: boolean;
  login: boolean;
  dashP: boolean;
  glued: boolean;
  userPass: boolean;
  /** The named tool's short flags that take a secret (SECRET_SHORT_FLAGS). */
  secretFlags: ReadonlySet<string> | undefined;
  /** The verbs of a command whose secret is a positional word (POSITIONAL_SECRETS), once the command is named. */
  verbs: ReadonlyMap<string, number> | undefined;
  /** Which positional word after the verb (or after htpasswd's flags) is the secret; 0 when none is awaited. */
  secretAt: number;
  /** Positional words read since the verb. */
  positionals: number;
  /** The word after the last one is a flag's value (`vault login -method userpass`), not a positional. */
  flagValue: boolean;
  /** htpasswd, and what its flags said: `-b` takes the password from the command line, `-n` writes no file. */
  htpasswd: boolean;
  batch: boolean;
  display: boolean;
}

const freshState = (): CommandState => ({
  pending: false,
  command: false,
  login: false,
  dashP: false,
  glued: false,
  userPass: false,
  secretFlags: undefined,
  verbs: undefined,
  secretAt: 0,
  positionals: 0,
  flagValue: false,
  htpasswd: false,
  batch: false,
  display: false,
});

/**
 * Commands that take a token or a password as a positional word after a verb, and which positional it is:
 * `vault login s.…`, `snyk auth …`, `ngrok config add-authtoken …`, `cf auth admin …` (the second).
 */
const POSITIONAL_SECRETS: ReadonlyMap<string, ReadonlyMap<string, number>> = new Map([
  ['vault', new Map([['login', 1]])],
  ['snyk', new Map([['auth', 1]])],
  ['ngrok', new Map([['authtoken', 1], ['add-authtoken', 1]])],
  ['cf', new Map([['auth', 2]])],
]);
/** Their flags that take no value: the word after one is a positional (`vault login -no-print s.…`). */
const BOOLEAN_FLAGS = new Set(['-no-print', '-no-store', '-token-only', '-non-interactive', '-tls-skip-verify', '--no-print', '--no-store', '--client-credentials']);
/** Words that are the shell's, not a command's positional (`<<<`, `|`, `&&`, `2>&1` aside). */
const SHELL_OPERATORS = '<>|&;()';

/** A Vault token by its prefix (service `s.`/`hvs.`, batch `b.`/`hvb.`, recovery `r.`/`hvr.`), wherever it stands after `vault login`. */
function vaultToken(word: string): boolean {
  const dot = word.indexOf('.');
  return (dot === 1 || dot === 3) && ['s', 'b', 'r', 'hvs', 'hvb', 'hvr'].includes(word.slice(0, dot)) && word.length - dot > 8;
}

/**
 * A word after a command whose secret is positional: flags and their values, `key=value` arguments (an auth
 * method's `username=bob`, read by keyValue) and the shell's operators are not counted.
 */
function verbSecretWord(state: CommandState, parts: string[], i: number): void {
  const word = parts[i]!;
  if (word === '\\') return;
  if (state.flagValue) {
    state.flagValue = false;
    if (!vaultToken(word)) return;
  }
  if (word.startsWith('-') && word.length > 1) {
    state.flagValue = !word.includes('=') && !BOOLEAN_FLAGS.has(word);
    if (commandEnds(word)) state.secretAt = 0;
    return;
  }
  // `&&`, `|`, `;`: the command ended before its secret (`vault login -method=oidc && vault kv get …`).
  if (SHELL_OPERATORS.includes(word[0]!)) state.secretAt = 0;
  if (word.includes('=') || state.secretAt === 0) return;
  state.positionals++;
  if (state.positionals < state.secretAt && !commandEnds(word)) return;
  if (state.positionals === state.secretAt) redactValueAt(parts, i, 0);
  state.secretAt = 0;
}

/** Positional words are counted from here on; the `at`th is the secret (0: none yet). */
function awaitPositional(state: CommandState, at: number): void {
  state.secretAt = at;
  state.positionals = 0;
  state.flagValue = false;
}

/** Whether a word ends its command (`admin;`, `x&&`). */
function commandEnds(word: string): boolean {
  return ';&|'.includes(word[word.length - 1]!);
}

/**
 * A word after htpasswd: with `-b` the password is on the command line, its last positional (after the file
 * and the user, or the user alone with `-n`); `-C` and `-r` take a number. Its flags come before the rest.
 */
function htpasswdWord(state: CommandState, parts: string[], i: number): void {
  const word = parts[i]!;
  if (word === '\\') return;
  if (state.flagValue) {
    state.flagValue = false;
    return;
  }
  if (word.startsWith('-') && word.length > 1 && state.positionals === 0) {
    if (word.includes('b')) state.batch = true;
    if (word.includes('n')) state.display = true;
    state.secretAt = state.batch ? (state.display ? 2 : 3) : 0;
    state.flagValue = word.endsWith('C') || word.endsWith('r');
    return;
  }
  if (SHELL_OPERATORS.includes(word[0]!)) return;
  state.positionals++;
  if (state.positionals === state.secretAt) redactValueAt(parts, i, 0);
}

/** Flags whose value is a list of `key=value` (helm's `--set a=1,b.c=2`, ansible's `-e "k=v k2=v2"`, `--build-arg`). */
const PAIR_FLAGS = new Set(['--set', '--set-string', '-e', '--extra-vars', '--env', '--build-arg']);
/** A key whose last part ends in one of these (lower case, without `_` and `-`) holds a secret: `x.dbpass`, `auth.postgresPassword`, `global.secretKey`. */
const SECRET_KEY_ENDINGS = ['password', 'passwd', 'passphrase', 'pass', 'pwd', 'secret', 'secretkey', 'token', 'apikey', 'accesskey', 'privatekey', 'credential', 'creds'];

/** Whether a `key=value` key names a secret by its last dotted part (`global.secretKey`, `users[0].password`). */
function secretKey(key: string): boolean {
  let last = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  const bracket = last.indexOf('[');
  if (bracket >= 0) last = last.slice(0, bracket);
  last = last.replaceAll('_', '').replaceAll('-', '');
  return SECRET_KEY_ENDINGS.some((end) => last.endsWith(end) || last.endsWith(`${end}s`));
}

/**
 * A list of `key=value` with the values of secret keys replaced; commas escaped by a backslash stay in their value.
 * `hiding`: the list goes on a hidden value from the word before (`"a.password=x y"`), so its first part without
 * a `=` is that value's and goes too (`goesOn`). Says whether the list ends on a hidden value.
 */
function redactPairList(list: string, hiding: boolean): { text: string; hiding: boolean; goesOn: boolean } {
  const out: string[] = [];
  let from = 0;
  let hidden = false;
  let goesOn = false;
  for (let at = 0; at <= list.length; at++) {
    if (at < list.length && (list[at] !== ',' || list[at - 1] === '\\')) continue;
    const pair = list.slice(from, at);
    if (hiding && from === 0 && !pair.includes('=')) {
      out.push('');
      hidden = goesOn = true;
    } else {
      const shown = redactPair(pair);
      out.push(shown);
      hidden = shown !== pair;
    }
    from = at + 1;
  }
  return { text: out.join(','), hiding: hidden, goesOn };
}

function redactPair(pair: string): string {
  const eq = pair.indexOf('=');
  if (eq <= 0 || !secretKey(pair.slice(0, eq))) return pair;
  let end = eq + 1;
  while (end < pair.length && !VALUE_END.includes(pair[end]!)) end++;
  const value = pair.slice(eq + 1, end);
  if (value === '' || value.startsWith('$') || harmless(value) || workingDirectory(pair.slice(0, eq), value)) return pair;
  return `${pair.slice(0, eq + 1)}${MARK}${pair.slice(end)}`;
}

/** A PAIR_FLAGS flag at `parts[i]`, its list the next word (`--set a=1`) or glued after `=` (`--set=a=1`). */
function pairFlag(parts: string[], i: number): void {
  const word = parts[i]!;
  if (PAIR_FLAGS.has(word)) return redactPairs(parts, i + 2, 0);
  const eq = word.indexOf('=');
  if (eq > 0 && PAIR_FLAGS.has(word.slice(0, eq))) redactPairs(parts, i, eq + 1);
}

/**
 * The `key=value` list that starts at `offset` in `parts[i]`, the value of a PAIR_FLAGS flag: quoted, it runs
 * across words to its closing quote (`-e "a=1 ansible_password=…"`).
 */
function redactPairs(parts: string[], i: number, offset: number): void {
  const first = parts[i];
  if (first === undefined) return;
  const quote = first[offset] === '"' || first[offset] === "'" ? first[offset]! : '';
  let hiding = false;
  for (let j = i; j < parts.length; j += 2) {
    const word = parts[j]!;
    const from = j === i ? offset + quote.length : 0;
    const close = quote ? word.indexOf(quote, from) : -1;
    const end = close >= 0 ? close : word.length;
    const list = redactPairList(word.slice(from, end), hiding);
    // A hidden value's words after its first go with the space before them.
    if (list.goesOn) parts[j - 1] = '';
    hiding = list.hiding;
    parts[j] = `${word.slice(0, from)}${list.text}${word.slice(end)}`;
    if (!quote || close >= 0) return;
  }
}

/** The program a word names, past the shell's punctuation, a path and `.exe`: `$(/usr/bin/docker.exe` → `docker`. */
function programOf(word: string): string {
  let start = 0;
  for (let i = 0; i < word.length; i++) if (SHELL_PUNCTUATION.includes(word[i]!)) start = i + 1;
  let end = word.length;
  while (end > start && SHELL_PUNCTUATION.includes(word[end - 1]!)) end--;
  let name = word.slice(start, end).toLowerCase();
  name = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  return name.endsWith('.exe') ? name.slice(0, -4) : name;
}

/**
 * Replaces the value that starts at `offset` in `parts[i]` (a word of a line split with its separators) by
 * the mark: a quoted value up to its closing quote, across words; an unquoted one up to the shell's
 * punctuation after it. Variables (`$PASS`) and what is not a secret stay.
 */
function redactValueAt(parts: string[], i: number, offset: number): void {
  const word = parts[i];
  if (word === undefined) return;
  const head = word.slice(0, offset);
  let rest = word.slice(offset);
  const escaped = rest.startsWith('\\"') || rest.startsWith("\\'");
  const quote = escaped ? rest.slice(0, 2) : rest[0] === '"' || rest[0] === "'" ? rest[0] : '';
  if (quote) {
    rest = rest.slice(quote.length);
    const close = rest.indexOf(quote);
    if (close >= 0) {
      if (close > 0 && !rest.startsWith('$')) parts[i] = `${head}${quote}${MARK}${rest.slice(close)}`;
      return;
    }
    // The closing quote is in a later word: everything up to it goes, spaces and all.
    for (let j = i + 2; j < parts.length; j += 2) {
      const at = parts[j]!.indexOf(quote);
      if (at < 0) continue;
      parts.splice(i, j - i + 1, `${head}${quote}${MARK}${parts[j]!.slice(at)}`);
      return;
    }
    parts.splice(i, parts.length - i, `${head}${quote}${MARK}`);
    return;
  }
  let end = 0;
  while (end < rest.length && !VALUE_END.includes(rest[end]!)) end++;
  const value = rest.slice(0, end);
  if (value === '' || value.startsWith('-') || value.startsWith('$') || harmless(value)) return;
  parts[i] = `${head}${MARK}${rest.slice(end)}`;
}

/**
 * Passwords given on a command line by flag: after `-p` of any `… login` (docker, podman, helm registry, oc,
 * az acr, cf, …) and of sshpass or the mongo shells, glued to mysql's `-p`, after redis-cli's `-a`, and the
 * password half of curl's `-u user:password`. Elsewhere `-p` is a port or a publish flag (psql, docker run)
 * and is kept. Read word by word, a line at a time; a line ending in a backslash goes on in the next.
 */
function commandLinePasswords(text: string): string {
  if (!mayHoldCommandSecret(text)) return text;
  let carried: CommandState | undefined;
  return text
    .split('\n')
    .map((line) => {
      const state = carried ?? freshState();
      carried = line.trimEnd().endsWith('\\') ? state : undefined;
      // A line that goes on in the next is read even without a flag: its command words count there.
      if (!carried && !state.pending && !state.login && !mayHoldCommandSecret(line)) return line;
      const parts = line.split(/([ \t]+)/);
      for (let i = 0; i < parts.length; i += 2) {
        const word = parts[i]!;
        if (word === '') continue;
        if (state.pending) {
          // The backslash that carries the value to the next line keeps it pending.
          if (word === '\\') continue;
          state.pending = false;
          redactValueAt(parts, i, 0);
          continue;
        }
        if (secretFlag(word)) {
          flagValue(state, parts, i + 2);
          continue;
        }
        const program = programOf(word);
        const verbAt = state.secretAt === 0 ? state.verbs?.get(word) : undefined;
        if (verbAt !== undefined) awaitPositional(state, verbAt);
        else if (state.secretAt > 0 && !state.htpasswd) verbSecretWord(state, parts, i);
        if (state.htpasswd && program !== 'htpasswd') htpasswdWord(state, parts, i);
        const verbs = POSITIONAL_SECRETS.get(program);
        if (verbs) {
          state.verbs = verbs;
          state.htpasswd = false;
          state.secretAt = 0;
        }
        if (program === 'htpasswd') {
          awaitPositional(state, 0);
          state.htpasswd = true;
          state.batch = false;
          state.display = false;
        }
        state.secretFlags = SECRET_SHORT_FLAGS.get(program) ?? state.secretFlags;
        if (program === 'login' && state.command) state.login = true;
        if (DASH_P_TOOLS.has(program)) state.dashP = true;
        if (GLUED_TOOLS.has(program)) state.glued = true;
        if (USER_PASS_TOOLS.has(program)) state.userPass = true;
        if (!word.startsWith('-')) state.command = true;
        // What a herestring feeds a login (`gh auth login --with-token <<< …`) is its token.
        if (word.startsWith('<<<') && (state.login || line.includes('--password-stdin') || line.includes('--with-token'))) {
          if (word === '<<<') redactValueAt(parts, i + 2, 0);
          else redactValueAt(parts, i, 3);
        }
        if (word[0] === '-') pairFlag(parts, i);
        if (word.startsWith('--')) {
          if (state.userPass && word === '--user') redactUserPass(parts, i + 2);
          else if (state.userPass && word.startsWith('--user=')) redactUserPass(parts, i, 7);
          else if (state.userPass && word === '--cookie') cookieValue(parts, i + 2, 0);
          else if (state.userPass && word.startsWith('--cookie=')) cookieValue(parts, i, 9);
          else if (word === '--from-literal') literalPair(parts, i + 2, 0);
          else if (word.startsWith('--from-literal=')) literalPair(parts, i, 15);
          continue;
        }
        if (state.login || state.dashP) {
          if (word === '-p') flagValue(state, parts, i + 2);
          else if (word.startsWith('-p=')) redactValueAt(parts, i, 3);
          else if (word.startsWith('-p') && word.length > 2) redactValueAt(parts, i, 2);
        } else if (state.glued && word.startsWith('-p') && word.length > 2) {
          redactValueAt(parts, i, word.startsWith('-p=') ? 3 : 2);
        }
        if (state.secretFlags?.has(word)) flagValue(state, parts, i + 2);
        if (state.userPass && word === '-b') cookieValue(parts, i + 2, 0);
        // `echo SECRET | docker login --password-stdin`: what echo prints is the password.
        if ((program === 'echo' || program === 'printf') && line.includes('--password-stdin')) redactValueAt(parts, i + 2, 0);
        if (state.userPass && word === '-u') redactUserPass(parts, i + 2);
        else if (state.userPass && word.startsWith('-u') && word.length > 2) redactUserPass(parts, i, 2);
      }
      return parts.join('');
    })
    .join('\n');
}

/**
 * A flag's value, the word at `parts[i]`; when the line ends there or at the backslash that carries it on
 * (`docker login -u admin -p \\`), the next line's first word (a line not carried on drops what is pending:
 * `mysql -p` alone prompts for the password).
 */
function flagValue(state: CommandState, parts: string[], i: number): void {
  const value = parts[i]?.trim();
  if (value === undefined || value === '' || value === '\\') state.pending = true;
  else redactValueAt(parts, i, 0);
}

/** Whether a text may hold a secret on a command line: a flag, or a verb whose secret is positional (`vault login s.…`). */
function mayHoldCommandSecret(text: string): boolean {
  return mayHaveFlags(text) || text.includes(' login ') || text.includes(' auth ') || text.includes('authtoken ');
}

/** Whether a text may hold a command-line flag: a dash after a space or a tab, or at its start (not `kube-apiserver`). */
function mayHaveFlags(text: string): boolean {
  return text.includes(' -') || text.includes('\t-') || text.startsWith('-');
}

/** curl's cookies at `parts[i]` (from `offset`): `-b "session=…"` is the cookie itself, `-b cookies.txt` a file that stays. */
function cookieValue(parts: string[], i: number, offset: number): void {
  if (parts[i]?.includes('=', offset)) redactValueAt(parts, i, offset);
}

/** A Secret's `--from-literal` at `parts[i]` (from `offset`): its value goes when its key names a secret (`dbpassword=`, `apitoken=`). */
function literalPair(parts: string[], i: number, offset: number): void {
  const word = parts[i];
  const eq = word?.indexOf('=', offset) ?? -1;
  if (eq > offset && secretKey(word!.slice(offset, eq))) redactValueAt(parts, i, eq + 1);
}

/** The password half of `user:password` at `parts[i]` (from `offset`), when there is one. */
function redactUserPass(parts: string[], i: number, offset = 0): void {
  const word = parts[i];
  if (word === undefined) return;
  const colon = word.indexOf(':', offset);
  if (colon > offset && colon + 1 < word.length) redactValueAt(parts, i, colon + 1);
}

/**
 * Full-width forms, mathematical letters and wide or non-breaking spaces read as what they look like (a
 * full-width '＝', a bold 𝗽, a no-break space after a key), what shows nothing goes (visible), and a key's name
 * spelled with look-alike letters reads as the name (keyName), so keys are seen; every other character, '…'
 * included, stays as it is. A text of printable ASCII (most are) is returned as it is.
 */
function readable(text: string): string {
  const p = redactionPatterns;
  if (!p.mayHide.test(text)) return text;
  const plain = visible(text)
    .replace(p.fullWidth, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .replace(p.mathLetter, (c) => c.normalize('NFKC'))
    .replace(p.wideSpace, ' ');
  return p.lookAlike.test(plain) ? plain.replace(p.lookAlikeWord, keyName) : plain;
}

/** The text without what shows nothing (terminalSequence, escapedHidden, showsNothing): a key or a token cannot hide behind it. */
function visible(text: string): string {
  const p = redactionPatterns;
  let out = text;
  if (out.includes('\u001b')) out = out.replace(p.terminalSequence, '');
  if (out.includes('\\')) out = out.replace(p.escapedHidden, '');
  return out.replace(p.showsNothing, '');
}

/** Cyrillic and Greek letters that look like Latin ones (and Turkish dotless i): `раssword` with Cyrillic р and а. */
const CONFUSABLES = new Map(
  Object.entries({
    а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', ѕ: 's', і: 'i', ј: 'j', ԁ: 'd', ԛ: 'q', ԝ: 'w', һ: 'h', к: 'k', ı: 'i',
    А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', Х: 'X', Ѕ: 'S', І: 'I', Ј: 'J', У: 'Y', Ԛ: 'Q', Ԝ: 'W',
    α: 'a', ο: 'o', ρ: 'p', ν: 'v', υ: 'u', ι: 'i', κ: 'k', τ: 't', χ: 'x', ε: 'e',
    Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
  }),
);
/** Words in a key's name, lower case: a word made of look-alikes that reads as one of them is a key's name. */
const KEY_WORDS = ['pass', 'pwd', 'secret', 'token', 'key', 'auth', 'credential', 'cookie', 'bearer', 'basic', 'session'];

/**
 * A word with look-alike letters, read as the key name it imitates when it imitates one (`раssword` → `password`),
 * so that the key is seen; any other word stays as it is (a Russian or Greek word has letters with no Latin look-alike).
 */
function keyName(word: string): string {
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
const QUERY_SECRET_KEYS = new Set(['key', 'sig']);

/** Whether a URL query's key carries a credential: `key`, `sig`, `X-Amz-Signature`, `access_token`, `api_key`, `client_secret`. */
function queryKey(name: string): boolean {
  const lower = (name.includes('%') ? name.replace(redactionPatterns.percentByte, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))) : name).toLowerCase();
  return QUERY_SECRET_KEYS.has(lower) || lower.endsWith('signature') || secretKey(lower);
}

/** Token prefixes that say a URL's user is a token (GitHub's, GitLab's). */
const TOKEN_PREFIXES = ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_', 'glpat-', 'gldt-'];

/** Whether a URL's user is a token: a known prefix, or a long run of letters and digits (an Azure DevOps or hex token); `git` and `jdoe` stay. */
function urlToken(user: string): boolean {
  if (TOKEN_PREFIXES.some((prefix) => user.startsWith(prefix))) return true;
  return user.length >= 32 && /^[A-Za-z0-9_-]+$/.test(user) && /[0-9]/.test(user) && /[A-Za-z]/.test(user);
}

/** A URL's scheme and user, the user hidden when it is a token (`https://<40 hex>:x-oauth-basic@github.com`: GitHub's old tokens). */
function tokenUser(userPart: string): string {
  const slashes = userPart.indexOf('://') + 3;
  return urlToken(userPart.slice(slashes)) ? `${userPart.slice(0, slashes)}${MARK}` : userPart;
}

/**
 * Secrets a URL or a connection string carries outside its password: a query's credential, a webhook's path,
 * a token as the user, a connection string's value with spaces. Each is read only when its mark is in the text.
 */
function urlSecrets(text: string): string {
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

/** Lines read up and down from a Secret's `data:` for the `kind:` of the object it is in. */
const KIND_LOOK = 200;

/** Where a line's key starts: past its indent and a list item's dash (`  - data:` → 4). */
function keyIndent(line: string): number {
  let n = 0;
  while (n < line.length && (line[n] === ' ' || (line[n] === '-' && line[n + 1] === ' '))) n++;
  return n;
}

/**
 * Whether the value nextLineSecret found on the line after its key (`key` ends with that line's indent) is
 * deeper than the key, as YAML reads a value there: a line at the key's own indent is its sibling (an error
 * line after an empty `  password:`), not its value.
 */
function deeper(text: string, at: number, key: string): boolean {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const valueIndent = key.length - key.lastIndexOf('\n') - 1;
  return valueIndent > keyIndent(text.slice(lineStart, lineStart + 200));
}

/** Whether a YAML line is `kind: Secret`, quoted or not. */
function secretKind(line: string): boolean {
  const key = line.slice(keyIndent(line)).replaceAll('"', '').replaceAll("'", '');
  return key.startsWith('kind:') && key.slice(5).trim() === 'Secret';
}

/**
 * Whether the YAML object whose `data:` is at line `at` (its keys at `indent`) is a Secret: its `kind:` may
 * be above or below it (kubectl writes data before kind), in a list's item or a document of its own.
 */
function inSecretObject(lines: string[], at: number, indent: number): boolean {
  for (const step of [-1, 1]) {
    for (let j = at + step, n = 0; j >= 0 && j < lines.length && n < KIND_LOOK; j += step, n++) {
      const line = lines[j]!;
      if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
      if (line.startsWith('---')) break;
      const k = keyIndent(line);
      if (k < indent) break;
      // A list item's first key starts the object: above, it is the object's own; below, the next object's.
      const item = k === indent && line.slice(0, k).includes('-');
      if (item && step > 0) break;
      if (k === indent && secretKind(line)) return true;
      if (item) break;
    }
  }
  return false;
}

/** A data entry with its value hidden: `password: cGFz` → `password: [redacted]`, quotes kept; a block's marker stays. */
function hiddenEntry(line: string, indent: number): string {
  const colon = line.indexOf(':', indent);
  if (colon < 0) return `${line.slice(0, indent)}${MARK}`;
  const value = line.slice(colon + 1).trim();
  if (value === '' || value.startsWith('|') || value.startsWith('>') || value.startsWith('#') || harmless(value)) return line;
  const quote = value[0] === '"' || value[0] === "'" ? value[0] : '';
  const space = line.slice(colon + 1).length - line.slice(colon + 1).trimStart().length;
  // A bare value's comment is no part of it (` # ERROR: …` after it stays).
  const comment = quote ? -1 : line.indexOf(' #', colon + 1 + space);
  return `${line.slice(0, colon + 1 + space)}${quote}${MARK}${quote}${comment < 0 ? '' : line.slice(comment)}`;
}

/**
 * The values under a Kubernetes Secret's `data:` and `stringData:`, every key's — a Secret holds nothing else;
 * a ConfigMap's data stays. `inSecret` says the text is part of a Secret whose kind is not in it (an evidence
 * line's context).
 */
function secretData(text: string, inSecret: boolean): string {
  if (!text.includes('ata') || (!inSecret && !text.includes('Secret'))) return text;
  let out = text;
  // `data:` as a key of its own, not the end of `metadata:`.
  if (out.includes(' data:') || out.includes('\ndata:') || out.startsWith('data:') || out.includes('stringData:')) out = secretDataYaml(out, inSecret);
  if (out.includes('ata"') && (inSecret || redactionPatterns.jsonSecretKind.test(out))) {
    out = out.replace(redactionPatterns.jsonSecretData, (_m, open: string, body: string) => `${open}${body.replace(redactionPatterns.jsonStringValue, (v, key: string, value: string) => (harmless(value) ? v : `${key}${MARK}"`))}`);
  }
  return out;
}

/** Whether the first line after line `at` that is not blank is deeper than `indent`: an entry of the object at `at`. */
function hasEntries(lines: string[], at: number, indent: number): boolean {
  for (let j = at + 1; j < lines.length; j++) if (lines[j]!.trim() !== '') return keyIndent(lines[j]!) > indent;
  return false;
}

function secretDataYaml(text: string, inSecret: boolean): string {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const indent = keyIndent(lines[i]!);
    const key = lines[i]!.slice(indent).trimEnd();
    // A `data:` with no entries under it hides nothing: its object's kind is not looked for (a paste of `data:`
    // lines would have it looked for up and down from each).
    if ((key !== 'data:' && key !== 'stringData:') || !hasEntries(lines, i, indent) || !(inSecret || inSecretObject(lines, i, indent))) continue;
    // The entries: deeper than `data:`, each at the first one's indent; deeper still, a block value's lines.
    let entry = -1;
    for (let j = i + 1; j < lines.length; j++) {
      const line = lines[j]!;
      if (line.trim() === '') continue;
      const k = keyIndent(line);
      if (k <= indent) break;
      if (entry < 0) entry = k;
      lines[j] = k === entry ? hiddenEntry(line, k) : k > entry ? `${line.slice(0, k)}${MARK}` : line;
      i = j;
    }
  }
  return lines.join('\n');
}

/**
 * The lines of a YAML block scalar under a secret's key (`secret: |`): all of them, not only the first that
 * nextLineSecret reads — every line deeper than the key is the value. A block whose first line is harmless or
 * an error's sentence is no secret's. Split into lines only when such a key is in the text.
 */
function secretBlocks(text: string): string {
  if ((!text.includes('|') && !text.includes('>')) || !redactionPatterns.secretBlockKey.test(text)) return text;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const key = redactionPatterns.secretBlockKey.exec(lines[i]!);
    if (!key || reference(key[1]!)) continue;
    const indent = keyIndent(lines[i]!);
    let end = i + 1;
    while (end < lines.length && (lines[end]!.trim() === '' || leadingSpace(lines[end]!) > indent)) end++;
    const first = lines.slice(i + 1, end).find((l) => l.trim() !== '');
    if (first === undefined || harmless(first.trim())) continue;
    for (let j = i + 1; j < end; j++) {
      const line = lines[j]!;
      const error = errorAfter(line.trimStart());
      if (line.trim() !== '') lines[j] = `${line.slice(0, leadingSpace(line))}${MARK}${error || (line.endsWith('\r') ? '\r' : '')}`;
    }
    i = end - 1;
  }
  return lines.join('\n');
}

/** The spaces and tabs a line starts with. */
function leadingSpace(line: string): number {
  return pastSpaces(line, 0);
}

/** The values of keys named for a registry's or a TLS key's file, read only when such a name is in the text. */
function secretFiles(text: string): string {
  if (!text.includes('.docker') && !text.includes('tls.key') && !text.includes('ssh-privatekey')) return text;
  return text.replace(redactionPatterns.secretFileKey, (_m, key: string) => `${key}${MARK}`);
}

/** Header lines a key block may have before its base64 (an encrypted PEM's, PGP's armour), lower case. */
const KEY_HEADERS = new Set(['proc-type:', 'dek-info:', 'comment:', 'version:', 'hash:', 'charset:']);
/** Shorter than this, a word on a line with others is a sentence's, not a piece of a key's base64 (64 characters a line). */
const KEY_CHUNK = 16;

/** How many characters of a break between a key block's words start at `at`: whitespace, or a JSON string's escaped line break (`\\n`). */
function keyBreak(text: string, at: number): number {
  const c = text[at];
  if (c === ' ' || c === '\t' || c === '\n' || c === '\r') return 1;
  return c === '\\' && (text[at + 1] === 'n' || text[at + 1] === 'r') ? 2 : 0;
}

/** Whether every character of a word is base64's (standard or URL-safe, with padding). */
function base64Word(word: string): boolean {
  return /^[A-Za-z0-9+/=_-]+$/.test(word);
}

/**
 * Private key blocks, from the start line through the body to the end line (`-----BEGIN … PRIVATE KEY-----` …
 * `-----END …-----`), or, for a block cut before its end, through the body alone. The body is what a key's is:
 * base64 words (each alone on its line, or long ones on a line with others, as a key pasted on one line has
 * them) and the header lines an encrypted or PGP key has. It ends at the first word that is not one: the line
 * after the start that says `ERROR: database … is being accessed` is the error's, and stays. Each character is
 * read once.
 */
function privateKeys(text: string): string {
  if (!/private key/i.test(text)) return text;
  const begin = redactionPatterns.privateKeyBegin;
  const parts: string[] = [];
  let shown = 0;
  begin.lastIndex = 0;
  for (let b = begin.exec(text); b; b = begin.exec(text)) {
    const block = keyBody(text, b.index + b[0].length);
    if (block.end === b.index + b[0].length) continue;
    parts.push(text.slice(shown, b.index), `-----BEGIN PRIVATE KEY----- ${MARK}${block.whole ? ' -----END PRIVATE KEY-----' : ''}`);
    shown = begin.lastIndex = block.end;
  }
  return shown === 0 ? text : parts.join('') + text.slice(shown);
}

/** Where a key block's body that starts at `from` ends (after its end line, when `whole`), read word by word. */
function keyBody(text: string, from: number): { end: number; whole: boolean } {
  let end = from;
  let at = from;
  // Whether the next word starts its line: a body line's base64 is alone on it.
  let lineStart = false;
  for (;;) {
    for (let gap = keyBreak(text, at); gap > 0; gap = keyBreak(text, at)) {
      if (gap === 2 || text[at] === '\n') lineStart = true;
      at += gap;
    }
    if (at >= text.length) break;
    if (endLineAt(text, at)) return { end: redactionPatterns.privateKeyEnd.lastIndex, whole: true };
    let stop = wordEnd(text, at);
    const word = text.slice(at, stop);
    if (KEY_HEADERS.has(word.toLowerCase())) {
      // Its value: the rest of its line, or on a one-line key its next word.
      stop = lineStart ? lineEnd(text, stop) : wordEnd(text, pastSpaces(text, stop));
    } else {
      const next = pastSpaces(text, stop);
      const alone = lineStart && (next >= text.length || keyBreak(text, next) > 0);
      if (!base64Word(word) || (!alone && word.length < KEY_CHUNK && !word.endsWith('=') && !endLineAt(text, next))) break;
    }
    lineStart = false;
    at = end = stop;
  }
  return { end, whole: false };
}

/** Whether a key block's end line starts at `at` (privateKeyEnd's lastIndex is then where it ends). */
function endLineAt(text: string, at: number): boolean {
  const endLine = redactionPatterns.privateKeyEnd;
  endLine.lastIndex = at;
  return text[at] === '-' && endLine.test(text);
}

/** Where the word of a key block that starts at `at` ends: at a break, or where an end line starts right after it. */
function wordEnd(text: string, at: number): number {
  let i = at;
  while (i < text.length && keyBreak(text, i) === 0 && !(i > at && text[i] === '-' && text[i - 1] !== '-' && endLineAt(text, i))) i++;
  return i;
}

/** Where the line that `at` is in ends (a line break, or a JSON string's escaped one). */
function lineEnd(text: string, at: number): number {
  let i = at;
  while (i < text.length && text[i] !== '\n' && text[i] !== '\r' && keyBreak(text, i) !== 2) i++;
  return i;
}

/** Past the spaces and tabs at `at`. */
function pastSpaces(text: string, at: number): number {
  let i = at;
  while (text[i] === ' ' || text[i] === '\t') i++;
  return i;
}

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

/** The text with every secret-looking value replaced by `[redacted]`. */
export function redact(text: string, options: RedactOptions = {}): string {
  const p = redactionPatterns;
  return authorizations(privateKeys(secretFiles(urlSecrets(secretBlocks(secretData(commandLinePasswords(readable(text)), options.inSecret ?? false))))))
    .replace(p.bearer, (_m, scheme: string) => `${scheme} ${MARK}`)
    .replace(p.quotedUrlCredentials, (_m, userPart: string) => `${tokenUser(userPart)}:${MARK}@`)
    .replace(p.urlCredentials, (_m, userPart: string) => `${tokenUser(userPart)}:${MARK}@`)
    .replace(p.nextLineSecret, (m, key: string, rest: string, value: string, at: number, whole: string) =>
      harmless(value.trim()) || reference(rest) || workingDirectory(key, value) || !deeper(whole, at, key) ? m : `${key}${MARK}${errorAfter(value)}`,
    )
    .replace(p.envNameValue, (m, key: string, value: string) => (harmless(value) ? m : `${key}${MARK}${value.slice(unclosed(value).length)}`))
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
