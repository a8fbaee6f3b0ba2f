import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import { keys, keyText, samePath } from './keys.js';
import { pathStart, shapeProblem, tooDeep, tooManyAliases, tooManyKeys, valuesLimits } from './limits.js';
import type { Origin, PastedValues } from './pasted.js';
import { secretsOf } from './secrets.js';

const notYaml = 'Paste a values file, --set flags or a helm upgrade command.';

/** What the walk over the document found: where each key is, keys given twice, or why it cannot be read. */
interface Layout {
  origins: Map<string, Origin>;
  notes: string[];
  error?: string;
}

/**
 * One pass over the parsed document in document order, without recursion: the line of each key, keys
 * given more than once in a map, and aliases that refer to no anchor or to a node that contains them
 * (`a: &a` then `  b: *a`, which would make the values contain themselves). It stops at the depth and
 * key limits, so that it copies no path longer than the depth limit and visits a bounded number of nodes.
 */
function layout(doc: ReturnType<typeof parseDocument>, lineCounter: LineCounter): Layout {
  const origins = new Map<string, Origin>();
  const notes: string[] = [];
  const anchors = new Map<string, unknown>();
  /** Nodes still to visit, last first; `exit` marks the end of a node's subtree. */
  const stack: { node: unknown; path: string[]; exit?: boolean }[] = [{ node: doc.contents, path: [] }];
  const open = new Set<unknown>();
  let count = 0;
  while (stack.length > 0) {
    const { node, path, exit } = stack.pop()!;
    if (exit) {
      open.delete(node);
      continue;
    }
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (target === undefined) return { origins, notes, error: `an alias (*${node.source.slice(0, 40)}) at ${pathStart(path)} refers to no anchor before it` };
      if (open.has(target)) return { origins, notes, error: `an anchor refers to itself: ${pathStart(path)} is *${node.source.slice(0, 40)}, which contains it` };
      continue;
    }
    if (!isMap(node) && !isSeq(node)) {
      if (isScalar(node) && node.anchor) anchors.set(node.anchor, node);
      continue;
    }
    if (node.anchor) anchors.set(node.anchor, node);
    open.add(node);
    stack.push({ node, path, exit: true });
    const children: { node: unknown; path: string[] }[] = [];
    if (isSeq(node)) node.items.forEach((item, i) => children.push({ node: item, path: [...path, String(i)] }));
    else {
      const lines = new Map<string, number>();
      for (const pair of node.items) {
        // A key that is a map or a list, written out or as an alias of one: Helm refuses it ("invalid map key"), and
        // reading one as JavaScript writes it out as text at every level below it again (400 nested braces took minutes).
        const keyNode = isAlias(pair.key) ? anchors.get(pair.key.source) : pair.key;
        if (isMap(keyNode) || isSeq(keyNode)) {
          const line = lineCounter.linePos((pair.key as { range?: [number] }).range?.[0] ?? 0).line;
          return { origins, notes, error: `This is not a values file Helm can read (line ${line}: a key${path.length > 0 ? ` under ${pathStart(path)}` : ''} is a ${isMap(keyNode) ? 'map' : 'list'}; the keys of values are text). ${notYaml}` };
        }
        if (!isScalar(pair.key)) {
          children.push({ node: pair.key, path }, { node: pair.value, path });
          continue;
        }
        const key = String(pair.key.value);
        const child = [...path, key];
        const line = lineCounter.linePos(pair.key.range?.[0] ?? 0).line;
        const before = lines.get(key);
        if (before !== undefined) notes.push(`${keyText(child)} is given more than once (lines ${before} and ${line}); helm keeps the last.`);
        lines.set(key, line);
        const braces = isMap(pair.value) && pair.value.flow === true;
        origins.set(keyText(child), { line, indent: lineCounter.linePos(pair.key.range?.[0] ?? 0).col - 1, ...(braces ? { braces } : {}) });
        if (pair.key.anchor) anchors.set(pair.key.anchor, pair.key);
        // The GCP credential is one value (a secret); its inside has no lines worth pointing at.
        if (!samePath(child, keys.gcpCredentials)) children.push({ node: pair.value, path: child });
      }
    }
    count += children.length;
    if (count > valuesLimits.keys) return { origins, notes, error: tooManyKeys };
    if (children.some((c) => c.path.length > valuesLimits.depth)) return { origins, notes, error: tooDeep(path) };
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return { origins, notes };
}

/** The first error of a document, said for the person who pasted it. */
function parseError(doc: ReturnType<typeof parseDocument>, lineCounter: LineCounter): string | undefined {
  const error = doc.errors[0];
  if (!error) return undefined;
  // The parser reports its own stack running out on deep nesting as an error at a position.
  if (error.message.startsWith('Maximum call stack size exceeded')) return yamlTooDeep;
  const line = lineCounter.linePos(error.pos[0]).line;
  return `This is not a YAML values file I can read (line ${line}: ${error.message.split('\n')[0]!.replace(/:$/, '').slice(0, 160)}). ${notYaml}`;
}

const yamlTooDeep = `too deep: the YAML nests more than ${valuesLimits.depth} levels; values check reads at most ${valuesLimits.depth}`;

/**
 * Whether brackets and braces open more than `limit` levels at some point, outside quotes and comments. The parser
 * holds about a kilobyte per open level before the depth can be checked on its document (a megabyte of `[` took a
 * gigabyte), so this linear scan refuses such a paste first. Text it misreads (an apostrophe in a plain word) only
 * leaves the paste to the parser's own checks.
 */
function flowTooDeep(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '[' || c === '{') {
      if (++depth > limit) return true;
    } else if (c === ']' || c === '}') depth = Math.max(0, depth - 1);
    else if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === "'") {
      i = text.indexOf("'", i + 1);
      if (i < 0) return false;
    } else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      i = text.indexOf('\n', i);
      if (i < 0) return false;
    }
  }
  return false;
}

/** Reads a YAML values file, or says why it cannot be checked (not YAML, too deep, too many keys or aliases, self-referring). */
export function readYaml(text: string): PastedValues | { error: string } {
  // Ten times the limit: the parser's cost is small there, and within it the walk below names the path too deep.
  if (flowTooDeep(text, 10 * valuesLimits.depth)) return { error: yamlTooDeep };
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: false, prettyErrors: false });
  const error = parseError(doc, lineCounter);
  if (error) return { error };
  const found = layout(doc, lineCounter);
  if (found.error) return { error: found.error };
  let values: unknown;
  try {
    values = doc.toJS({ maxAliasCount: valuesLimits.aliases }) as unknown;
  } catch (err) {
    // The yaml library refuses alias expansion beyond maxAliasCount with a ReferenceError.
    if (err instanceof ReferenceError && /alias/i.test(err.message)) return { error: tooManyAliases };
    throw err;
  }
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    return { error: 'This is not a values file (a YAML map of keys), nor --set flags, nor a helm upgrade command.' };
  }
  const shape = shapeProblem(values);
  if (shape) return { error: shape };
  return { form: 'yaml', values: values as Record<string, unknown>, origins: found.origins, notes: found.notes, secrets: secretsOf(values, new Map()) };
}
