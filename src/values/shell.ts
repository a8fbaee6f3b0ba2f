/**
 * Just enough of the POSIX shell to read a pasted `helm upgrade …` the way the shell would: quotes,
 * backslash escapes, line continuations, comments, command separators, `$(…)` kept as it is, and
 * here-documents (`cat > file <<'EOF'`) remembered as files, so a pasted script that writes a file
 * and reads it in a `$(…)` can be checked. Nothing is ever run.
 */

/** One word after quote removal; `dynamic` when it holds `$(…)`, `$VAR` or backquotes the shell would expand. */
export interface Word {
  readonly text: string;
  readonly dynamic: boolean;
  /** An unquoted `{a,b}`: bash expands it into several words before helm sees them. */
  readonly braceExpands?: boolean;
}

/** The script: its simple commands in order, and the files its here-documents write. */
export interface Script {
  readonly commands: Word[][];
  readonly files: ReadonlyMap<string, string>;
}

interface HereDoc {
  delimiter: string;
  stripTabs: boolean;
  command: Word[];
}

/** Splits pasted shell text into commands and words. Never throws; an unclosed quote ends at the end of the text. */
export function parseShell(text: string): Script {
  const commands: Word[][] = [];
  const files = new Map<string, string>();
  const pending: HereDoc[] = [];
  let command: Word[] = [];
  let word = '';
  let inWord = false;
  let dynamic = false;
  /** The unquoted characters of the word, to spot brace expansion. */
  let bare = '';
  let i = 0;

  const endWord = () => {
    if (inWord) command.push({ text: word, dynamic, ...(bracesExpand(bare) ? { braceExpands: true } : {}) });
    word = '';
    bare = '';
    inWord = false;
    dynamic = false;
  };
  const endCommand = () => {
    endWord();
    if (command.length > 0) commands.push(command);
    command = [];
  };
  /** At a newline: the bodies of the here-documents opened on this line follow. */
  const readHereDocs = () => {
    for (const doc of pending.splice(0)) {
      const body: string[] = [];
      while (i < text.length) {
        const nl = text.indexOf('\n', i);
        const line = text.slice(i, nl === -1 ? text.length : nl);
        i = nl === -1 ? text.length : nl + 1;
        const shown = doc.stripTabs ? line.replace(/^\t+/, '') : line;
        if (shown.trimEnd() === doc.delimiter) break;
        body.push(shown);
      }
      const target = redirectTarget(doc.command);
      if (target) files.set(target, body.length > 0 ? `${body.join('\n')}\n` : '');
    }
  };

  while (i < text.length) {
    const c = text[i]!;
    if (c === '\\') {
      const next = text[i + 1];
      if (next === '\n') {
        i += 2;
        continue;
      }
      if (next === '\r' && text[i + 2] === '\n') {
        i += 3;
        continue;
      }
      if (next !== undefined) word += next;
      inWord = true;
      i += 2;
      continue;
    }
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      word += text.slice(i + 1, end === -1 ? text.length : end);
      inWord = true;
      i = end === -1 ? text.length : end + 1;
      continue;
    }
    if (c === '"') {
      i++;
      inWord = true;
      while (i < text.length && text[i] !== '"') {
        const d = text[i]!;
        if (d === '\\' && i + 1 < text.length && '"\\$`\n'.includes(text[i + 1]!)) {
          if (text[i + 1] !== '\n') word += text[i + 1];
          i += 2;
          continue;
        }
        if (d === '$' || d === '`') dynamic = true;
        const end = runEnd(text, i + 1, quotedStops);
        word += text.slice(i, end);
        i = end;
      }
      i++;
      continue;
    }
    if (c === '$' && text[i + 1] === '(') {
      const end = closingParen(text, i + 2);
      word += text.slice(i, end + 1);
      inWord = true;
      dynamic = true;
      i = end + 1;
      continue;
    }
    if (c === '$' || c === '`') dynamic = true;
    if (c === '#' && !inWord) {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      endWord();
      i++;
      continue;
    }
    if (c === '\n' || c === ';') {
      const docs = pending.length > 0;
      endCommand();
      i++;
      if (c === '\n' && docs) readHereDocs();
      continue;
    }
    if ((c === '&' || c === '|') && !inWord) {
      endCommand();
      i += text[i + 1] === c ? 2 : 1;
      continue;
    }
    if (c === '<' && text[i + 1] === '<' && !inWord) {
      endWord();
      i += 2;
      const stripTabs = text[i] === '-';
      if (stripTabs) i++;
      while (text[i] === ' ' || text[i] === '\t') i++;
      let delimiter = '';
      while (i < text.length && !' \t\n;'.includes(text[i]!)) {
        if (text[i] !== "'" && text[i] !== '"') delimiter += text[i];
        i++;
      }
      pending.push({ delimiter, stripTabs, command });
      continue;
    }
    if ((c === '>' || c === '<') && !inWord) {
      endWord();
      const op = text[i + 1] === '>' ? '>>' : c;
      command.push({ text: op, dynamic: false });
      i += op.length;
      continue;
    }
    // Inside a word `#`, `&`, `|`, `<` and `>` are ordinary, so the run goes on to the next quote, escape,
    // expansion or blank.
    const end = runEnd(text, i + 1, wordStops);
    word += text.slice(i, end);
    bare += text.slice(i, end);
    inWord = true;
    i = end;
  }
  endCommand();
  return { commands, files };
}

/**
 * Characters that end a run of ordinary ones, outside and inside double quotes. Words are taken a run at
 * a time: appending one character at a time made a 100 KB word several times slower per doubling.
 */
const wordStops = new Set(['\\', "'", '"', '$', '`', ' ', '\t', '\r', '\n', ';']);
const quotedStops = new Set(['\\', '"', '$', '`']);

/** The index of the first character from `from` on that is one of `stops` (or the end of the text). */
function runEnd(text: string, from: number, stops: ReadonlySet<string>): number {
  let j = from;
  while (j < text.length && !stops.has(text[j]!)) j++;
  return j;
}

/** Whether unquoted text holds `{…,…}`, which bash expands (`installer.modules={cicd,argo-cd}` becomes two words). */
function bracesExpand(bare: string): boolean {
  const open = bare.indexOf('{');
  if (open === -1) return false;
  const close = bare.indexOf('}', open);
  return close !== -1 && bare.slice(open, close).includes(',');
}

/** Index of the `)` closing a `$(` whose body starts at `from`, minding nesting and quotes. */
function closingParen(text: string, from: number): number {
  let depth = 1;
  let quote: string | undefined;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"') i++;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '\\') i++;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return text.length - 1;
}

/** The file a command writes with `>` (as in `cat > gcp-credentials.json <<'EOF'`). */
function redirectTarget(command: readonly Word[]): string | undefined {
  const at = command.findIndex((w) => w.text === '>' || w.text === '>>');
  return at >= 0 ? command[at + 1]?.text : undefined;
}

/**
 * The value of a `$(…)` the checker can know without running anything: the base64 of a file the same
 * paste wrote with a here-document (`$(base64 < f | tr -d '\n')`, `$(base64 -w0 f)`); else undefined.
 */
export function knownSubstitution(word: string, files: ReadonlyMap<string, string>): string | undefined {
  if (!word.startsWith('$(') || !word.endsWith(')')) return undefined;
  const inner = parseShell(word.slice(2, -1)).commands.flat().map((w) => w.text);
  if (inner[0] !== 'base64') return undefined;
  const file = inner.find((t) => files.has(t));
  const allowed = new Set(['base64', '-w0', '-w', '0', '<', 'tr', '-d', '\\n', '--wrap=0', 'cat', file ?? '']);
  if (!file || !inner.every((t) => allowed.has(t))) return undefined;
  return Buffer.from(files.get(file)!, 'utf8').toString('base64');
}

// No comma: an unquoted `{a,b}` would be brace-expanded by bash.
const safeWord = /^[A-Za-z0-9_@%+=:./{}-]+$/;

/** A word quoted for the shell only when it needs to be (`<ACCESS_KEY>`, spaces, backslashes). */
export function shellQuote(word: string): string {
  if (word === '') return "''";
  if (safeWord.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
