/** Redaction's mark and its patterns (src/redact.ts applies them in order; the ReDoS test checks each). */
export const MARK = '[redacted]';

/** The patterns, exported so the ReDoS test can check every one. */
export const redactionPatterns = {
  // A private key block's start and end lines: any kind (RSA, EC, OpenSSH, PGP's "… KEY BLOCK", ssh.com's "SSH2
  // ENCRYPTED"), any case, four or five dashes, with RFC 4716's spaces inside them. privateKeys reads the body between them.
  privateKeyBegin: /-{4,5} ?BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)? ?-{4,5}/gi,
  privateKeyEnd: /-{4,5} ?END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)? ?-{4,5}/iy,
  // A PuTTY key file's private part (`.ppk`): its base64 lines follow this line; privateKeys reads them as a block's body.
  puttyPrivateLines: /\bPrivate-Lines:[ \t]{0,10}[0-9]{1,5}/gi,
  // Not the words after them ("basic authentication").
  bearer: /\b(bearer|basic)[ \t]+(?!auth)[A-Za-z0-9._~+/=-]{8,}/gi,
  // The user may be empty (`redis://:secret@redis:6379`); the password may hold an '@' (up to the last before the
  // host) and a '/' (not '//', where the next URL starts); a port and a path (`:443/@scope`) are no password.
  urlCredentials: /\b([a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@]*):(?![0-9]{1,5}\/)(?:[^\s/]|\/(?!\/))+@/gi,
  // A connection's password written without a scheme (`app:secret@db.internal:5432`, `admin:secret@localhost`): the
  // user starts a word (not a path's or an image's part: `/postgres:11.9@sha256:…`), and the host is one (a dotted
  // name, localhost, or a name with a port), so an image's digest, an npm alias, `mailto:` and a node line stay.
  schemelessCredentials: /(?<![\w.+/:@-])(?!mailto:|npm:)([A-Za-z0-9][A-Za-z0-9._-]{0,63}):([^\s:@/"'<>]+)@(?=localhost\b|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+|[A-Za-z][A-Za-z0-9-]*:[0-9]{1,5}\b)/g,
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
    /(?<![A-Za-z0-9])((?:[a-z]{1,20}(?=pass(?:word|wd|phrase)|pw[^a-z]|secret|token))?(?:password|passwd|passphrase|pass|pwd|pw(?![a-z])|secret|token|identitytoken|registrytoken|api[_-]?key|apikey|access[_-]?key|private[_-]?key|accountkey|sessionid|credentials?|auth(?!entic|or(?!iz))))([A-Za-z0-9_.-]{0,40})(\\?["']?[ \t]{0,10}(?:=>|[:=])[ \t]{0,10}\\?["']?)((?<=\\")(?:[^"\\\n]|\\(?!"))+|(?<=[^\\]")(?:\\\r?\n|\\.|[^"\\\n])+|(?<=')(?:\\\r?\n|\\.|[^'\\\n])+|(?<!["'])[^\s"',;}{[][^\s"]*)/gi,
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
  knownToken: /\b(?:AIza[0-9A-Za-z_-]{30,}|[sr]k_(?:live|test)_[0-9A-Za-z]{10,}|sk-(?:proj-)?[A-Za-z0-9_-]{20,}|SG\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}|npm_[A-Za-z0-9]{20,}|hf_[A-Za-z0-9]{20,}|gl(?:rt|dt|cbt|ptt|soat|ft|agent)-[A-Za-z0-9_-]{10,}|dckr_(?:pat|oat)_[A-Za-z0-9_-]{10,}|hv[sbr]\.[A-Za-z0-9_-]{20,})/g,
  // An authorization header up to its scheme, any scheme (`Authorization: OAuth …`, `Authorization: SSWS …`, a
  // short `Basic YTpi`); authorizations hides what follows it.
  authHeader: /\b(authorization["']?[ \t]{0,10}[:=][ \t]{0,10}["']?)([A-Za-z][A-Za-z0-9_.-]{0,30})[ \t]+(?=\S)/gi,
  // A camelCase key that ends in the word (`clientSecret: …`, `adminPassword=…`, `accessToken: …`, helm's
  // `x.dbPass=…`, `globalSecretKey: …`), which keyValue's start-of-word anchor does not see.
  camelSecret: /(?<![A-Za-z0-9])([A-Za-z][a-z0-9]{0,30}(?:Pass(?:word|wd|phrase)?|Pwd|Secret(?:Key)?|Token|ApiKey|AccessKey|PrivateKey|Credentials?|Creds))(["']?[ \t]{0,10}[:=][ \t]{0,10}["']?)((?<=")[^"\n]+|(?<=')[^'\n]+|(?<!["'])[^\s"',;}]+)/g,
  // A YAML key's unquoted value runs to the end of its line or a comment (`password: hunter 2x`).
  // An XML element named for a secret (Maven's settings.xml `<password>…</password>`, `<db:password>`, `<apiKey>`): its
  // text, on one line. A name that only starts with the word (`<passwordPolicy>`) is not one.
  // Its text may be a CDATA section (`<password><![CDATA[p<ss]]></password>`), which may hold a `<`.
  xmlSecret: /<((?:[A-Za-z_][\w.-]{0,20}[:_.-])?(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credentials?))((?:[ \t][^<>\n]{0,200})?)>(<!\[CDATA\[[^\n]{0,500}?\]\]>|[^<\n]{1,500})<\/\1[ \t]{0,4}>/gi,
  // An XML element whose name or key attribute names a secret (Hibernate's `<property name="connection.password">…</property>`,
  // .NET's `<add key="DbPassword" value="…"/>`, `<entry key="api.token">…</entry>`): its value attribute after the name, or
  // its text. The name must end in the word: `name="passwordPolicy"` is not one.
  xmlNamedSecret: /(<([A-Za-z_][\w:.-]{0,40})[ \t][^<>\n]{0,200}?\b(?:name|key)[ \t]{0,4}=[ \t]{0,4}(["'])[\w.:-]{0,60}?(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credentials?)\3)(?:([^<>\n]{0,200}?\bvalue[ \t]{0,4}=[ \t]{0,4}(["']))([^"'\n]{1,500})\5|([^<>\n]{0,200}>)(<!\[CDATA\[[^\n]{0,500}?\]\]>|[^<\n]{1,500})(?=<\/\2[ \t]{0,4}>))/gi,
  yamlSecret: /^([ \t]{0,40}(?:-[ \t]{1,4})?(?:password|passwd|pwd|secret|token|api[_-]?key)[ \t]{0,4}:[ \t]{1,10})([^"'\s#$<|>][^\n#]*)/gim,
  // A YAML key in capitals that ends in the word (`DB_PASS: …`, `REDIS_PASSWORD: "…"`), at the start of a line.
  yamlEnvSecret: /^([ \t]{0,40}(?:-[ \t]{1,4})?[A-Z][A-Z0-9_]{0,30}(?:PASSWORD|PASSWD|PASS|PWD|SECRET|TOKEN):[ \t]{1,10})(["']?)([^\s"',;]+)/gm,
  // A kubeconfig's client key and token (`client-key-data: LS0t…`).
  kubeconfigKey: /\b(client-key-data:[ \t]{0,10})([A-Za-z0-9+/=]{8,})/g,
  // A password in a sentence, when it looks like one (a digit or a symbol in it): "the password is Sup3r!", "… is: Sup3r!".
  // Its first part cannot hold the digit or symbol, so the word is read once whatever its length.
  proseSecret: /\b(pass(?:word|wd|phrase)[ \t]+(?:is|was):?[ \t]+["'`]?)([^\s"'`0-9!@#$%^&*]*[0-9!@#$%^&*][^\s"'`]*)/gi,
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
