/**
 * Every regular expression the matcher uses, in one registry so that test/matching/redos.test.ts can
 * prove each one linear-time with a ReDoS checker. Signatures themselves are never regular
 * expressions: they go through the Aho–Corasick automaton. Keep these anchored or free of nested
 * quantifiers, and add any new one here rather than inline.
 */
export const patterns = {
  /** A run of whitespace, for splitting table rows and normalising literals. */
  whitespace: /\s+/,
  /** A READY or COMPLETIONS cell such as `0/1`. */
  readyCount: /^\d+\/\d+$/,
  /** A RESTARTS cell such as `12`. */
  count: /^\d+$/,
  /** Marks of a machine-written line (as opposed to a person's sentence), see prose.ts. */
  clockTime: /\d\d:\d\d:\d\d/,
  isoDate: /\d{4}-\d\d-\d\d/,
  klogPrefix: /^[IWEF]\d{4} /,
  keyValue: /[a-z_]=[^\s=]/i,
  structuredStart: /^[{[<]/,
  errorChainPrefix: /^[\w./-]+: /,
  tableGap: /\S {3}/,
  sourceLocation: /\.[a-z]{1,5}:\d/i,
  stackFrame: /^at [\w.$<>]/,
  /** A name with an inner separator (argocd-dex-server, tls.crt, metrics/resource), not a plain word; see score.ts. */
  namedThing: /[a-z0-9][-_./][a-z0-9]/,
  /** The end of a sentence inside a line. */
  sentenceEnd: /[.!?;]\s/,
  /** Where words split in a sentence; apostrophes stay inside words for contractions. */
  nonWord: /[^a-z0-9'\u2019]+/,
  /**
   * A 0.x platform version after a separator: `LTAG=v0.6.1`, `on 0.7.x`, `v0.6.29`; see versions.ts. Sticky: it is
   * tried only where a statement can start, the two characters before each "0." of the text and the "0." itself.
   */
  platformVersion: /(?:^|[\s=:"'(])v?0\.(\d{1,2})(?:\.(\d{1,2}|x))?/imy,
  /** A chain of Go-style error prefixes ("…server: x509: …"), a mark of machine output. */
  errorChain: /\w: [^\s:]+: /,
  /**
   * A named Kubernetes subject as tools write it: `namespace "shop"`, `-n shop`, `pods "x"`, `pod/x`, `secrets "x"`,
   * `statefulset.apps "db"`, `image "quay.io/x/y:1"`, `namespace: shop`; group 1 is the name (see subject.ts).
   * A word after "pod" in a sentence is not a name.
   */
  namedSubject: /(?:(?:\bnamespaces?|\bstatefulsets?(?:\.apps)?|\bdeployments?(?:\.apps)?|\bpods?|\bsecrets?|\bimage)(?: \\?"|: "?|=|\/)|\s-n |--namespace[ =])([a-z0-9][a-z0-9._\-/:@]{1,200})/gi,
  /**
   * What makes the platform's name that follows a denial ("our own proxy, not devtron"): tried on the few
   * characters before a name only, anchored at their end.
   */
  deniedBefore: /(?:\bnot|n't|n\u2019t|\bnon-|\bunrelated to|\bnothing to do with|\binstead of|\boutside(?: of)?)(?: (?:the|a|an|our|any))? ?$/,
  /**
   * A contraction that starts a question rather than denying the name after it ("why doesn't devtron …",
   * "Isn't devtron supposed to …"): the auxiliary first in its clause, or after a question word or a
   * conjunction. Tried on the characters before a name that deniedBefore found denied, anchored at their end.
   */
  askedBefore: /(?:^|[^\w\s'\u2019]\s*|\b(?:why|how|what|when|where|who|which|so|and|but|or|then)\s+)[a-z]+(?:n't|n\u2019t)(?: (?:the|a|an|our|any))? ?$/,
  /** A speaker or channel before a chat line (`alice: `, `[devtron] `, `<bob> `), its name in a group: not a mark of machine output. */
  speaker: /^(?:([a-z][a-z_]{1,30}): |\[([a-z][\w .#@-]{0,30})\] |<([a-z][\w.-]{0,30})> )/i,
  /**
   * Words with which people say that what they did worked (applied.ts): a fix shown with them is the entry's,
   * confirmed, not one that failed. One pass over a paste; most say nothing of the kind.
   */
  saysWorked: /it works|it worked|it work\b|without any issues?|without issues|works now|working now|fixed it|that fixed|this fixed|which fixed|solved it|resolved it|problem solved|issue resolved|solves the problem|solved the problem|solves this|solved this|works around|did the trick|made it work|makes it work/,
  /**
   * Words before a fix, in its clause, that make it a question, a suggestion or a fix not made: "should I
   * add", "do I need", "a colleague suggests", "I have not added … yet", "adds the missing …" (applied.ts).
   */
  fixNotMade: /\b(?:should|shall|must i|do i need|does it need|need to|needs to|have to|has to|try|trying to|want to|going to|plan to|whether|suggest\w*|recommend\w*|advis\w*|instead of|without|not yet|never|haven't|have not|hasn't|has not|didn't|did not|missing)\b/,
  /**
   * A heading that says the lines under it are not what is in force: what the person had before, or what is
   * suggested or asked about (a heading ending in a question mark); applied.ts.
   */
  notInForce: /\b(?:before|old|previous(?:ly)?|original(?:ly)?|removed|deleted|used to|should|suggest\w*|recommend\w*|advis\w*)\b|\?$/,
  /** A unified diff in a paste (a hunk, a "+++" file line, a git header): its lines starting with "-" are removed ones. */
  diffMark: /^(?:@@ -\d|\+\+\+ \S|diff --git )/m,
  /** A log level first after a thread or logger in brackets (`[main] INFO  c.e.App - …`): a log line, not a chat line (prose.ts). */
  levelFirst: /^(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|ERR|FATAL|PANIC|CRITICAL|NOTICE|SEVERE)\b/,
  /** ANSI colour sequences, removed from evidence lines. */
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  ansi: /\u001b\[[0-9;?]*[ -/]*[@-~]/g,
  /**
   * Operating-system commands (ESC ] … BEL or ESC \\): a window title, a clipboard write (OSC 52), a
   * hidden link (OSC 8). Removed from evidence with their content, which a terminal would act on.
   */
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  osc: /\u001b\][^\u0007\u001b]{0,4096}(?:\u0007|\u001b\\)?/g,
  /** Control characters that do not occur in text (tab, newline, carriage return and escape excepted). */
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  controlChar: /[\u0001-\u0008\u000b\u000c\u000e-\u001a\u001c-\u001f\ufffd]/g,
  /** Escape and carriage return, left in text for the scanner and taken out of what is shown. */
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  escOrReturn: /[\u001b\r]/g,
  /** Characters that show nothing or turn text around (see automaton.ts, INVISIBLE): taken out of what is shown. */
  invisible: /[\u00ad\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g,
} as const;
