import { keyText } from './keys.js';

/**
 * How much of a paste `values check` reads. Real installer values nest a handful of levels and hold a
 * few hundred keys; these bounds are far above that and keep every answer within bounded time and memory.
 */
export const valuesLimits = {
  /** Levels of a key path (`a.b.c` is 3), in YAML, in a --set key and inside --set-json. */
  depth: 100,
  /** Keys and list items of the whole values tree, counted as they are expanded (aliases included). */
  keys: 10_000,
  /** key=value assignments of all the --set family flags together. */
  assignments: 10_000,
  /** YAML aliases (`*name`) expanded; each may stand for a large subtree. */
  aliases: 100,
  /** Notes shown; the rest are counted. */
  notes: 50,
} as const;

const count = (n: number): string => n.toLocaleString('en');

/** The first segments of a path, enough to find it in the paste. */
export function pathStart(path: readonly string[]): string {
  return path.length > 11 ? `${keyText(path.slice(0, 11))}…` : keyText(path);
}

/** A --set key with more levels than values check reads. */
export function keyTooDeep(path: readonly string[]): string {
  return `too deep: the key ${pathStart(path)} has ${count(path.length)} levels; values check reads at most ${valuesLimits.depth}`;
}

export function tooManyAssignments(n: number): string {
  return `too many assignments: the paste sets ${count(n)} keys; values check reads at most ${count(valuesLimits.assignments)}`;
}

/** A values tree nested deeper than values check reads, at `path`. */
export function tooDeep(path: readonly string[]): string {
  return `too deep: ${pathStart(path)} nests more than ${valuesLimits.depth} levels; values check reads at most ${valuesLimits.depth}`;
}

export const tooManyKeys = `too many keys: the values hold more than ${count(valuesLimits.keys)}; values check reads at most ${count(valuesLimits.keys)}`;

export const tooManyAliases = `the values use too many aliases (YAML *references): values check expands at most ${valuesLimits.aliases}`;

/**
 * Why a values tree cannot be checked, or undefined when it can: nested deeper than the limit, more keys
 * than the limit, or containing itself (readYaml refuses a self-referring anchor before; this is the
 * net under every other way in). The walk is iterative and stops at the first limit reached, so it is
 * bounded whatever the tree; a subtree shared by several aliases is counted each time it appears, as
 * every later walk would visit it again.
 */
export function shapeProblem(values: unknown): string | undefined {
  interface Frame {
    node: object;
    path: string[];
    keys: string[];
    next: number;
  }
  const open = (node: object, path: string[]): Frame => ({ node, path, keys: Object.keys(node), next: 0 });
  if (typeof values !== 'object' || values === null) return undefined;
  const stack: Frame[] = [open(values, [])];
  /** The objects on the path from the root to the current one: meeting one again is a cycle. */
  const ancestors = new Set<object>([values]);
  let seen = 0;
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next === top.keys.length) {
      ancestors.delete(top.node);
      stack.pop();
      continue;
    }
    const key = top.keys[top.next++]!;
    if (++seen > valuesLimits.keys) return tooManyKeys;
    if (top.path.length + 1 > valuesLimits.depth) return tooDeep([...top.path, key]);
    const child = (top.node as Record<string, unknown>)[key];
    if (typeof child !== 'object' || child === null) continue;
    const path = [...top.path, key];
    if (ancestors.has(child)) return `the values contain themselves: ${pathStart(path)} holds a value that contains it`;
    ancestors.add(child);
    stack.push(open(child, path));
  }
  return undefined;
}
