import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Reads V8 heap snapshots (`bench/slack.ts --heap-snapshots` writes them) and says where the memory
 * goes: the heap by kind of object (self sizes), and the objects that retain the most (dominator
 * tree), each with the chain of objects that holds it. With two snapshots, what grew between them.
 *
 * A .heapprofile (every allocation during the load, `--allocations`) is read as allocated bytes by
 * function, and by the first frame of this repository on each allocation's stack.
 *
 *   npx tsx bench/heap.ts A.heapsnapshot [B.heapsnapshot] [--top N]
 *   npx tsx bench/heap.ts load.heapprofile [--top N]
 */

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]]; edge_fields: string[]; edge_types: [string[], ...unknown[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** One snapshot in arrays: node i's kind, name, self size, and its outgoing edges. */
export interface HeapGraph {
  readonly count: number;
  readonly kind: string[];
  readonly name: string[];
  readonly self: Float64Array;
  /** Edges of node i: targets[firstEdge[i] .. firstEdge[i + 1]), with their names. */
  readonly firstEdge: Uint32Array;
  readonly targets: Uint32Array;
  readonly edgeNames: string[];
  readonly weak: Uint8Array;
}

export function readHeap(path: string): HeapGraph {
  const s = JSON.parse(readFileSync(path, 'utf8')) as Snapshot;
  const nf = s.snapshot.meta.node_fields;
  const ef = s.snapshot.meta.edge_fields;
  const nodeTypes = s.snapshot.meta.node_types[0];
  const edgeTypes = s.snapshot.meta.edge_types[0];
  const [nType, nName, nSize, nEdges] = ['type', 'name', 'self_size', 'edge_count'].map((f) => nf.indexOf(f)) as [number, number, number, number];
  const [eType, eName, eTo] = ['type', 'name_or_index', 'to_node'].map((f) => ef.indexOf(f)) as [number, number, number];
  const count = s.nodes.length / nf.length;
  const kind: string[] = new Array<string>(count);
  const name: string[] = new Array<string>(count);
  const self = new Float64Array(count);
  const firstEdge = new Uint32Array(count + 1);
  const edgeCount = s.edges.length / ef.length;
  const targets = new Uint32Array(edgeCount);
  const edgeNames: string[] = new Array<string>(edgeCount);
  const weak = new Uint8Array(edgeCount);
  let e = 0;
  for (let i = 0; i < count; i++) {
    const base = i * nf.length;
    kind[i] = nodeTypes[s.nodes[base + nType]!]!;
    name[i] = s.strings[s.nodes[base + nName]!]!;
    self[i] = s.nodes[base + nSize]!;
    firstEdge[i] = e;
    const n = s.nodes[base + nEdges]!;
    for (let k = 0; k < n; k++, e++) {
      const eb = e * ef.length;
      const type = edgeTypes[s.edges[eb + eType]!]!;
      const raw = s.edges[eb + eName]!;
      targets[e] = s.edges[eb + eTo]! / nf.length;
      edgeNames[e] = type === 'element' || type === 'hidden' ? `[${raw}]` : s.strings[raw]!;
      weak[e] = type === 'weak' ? 1 : 0;
    }
  }
  firstEdge[count] = e;
  return { count, kind, name, self, firstEdge, targets, edgeNames, weak };
}

/** What a node is, in the words DevTools uses: its constructor, or its kind. */
export function label(g: HeapGraph, i: number): string {
  const k = g.kind[i]!;
  if (k === 'object' || k === 'native') return g.name[i]!.slice(0, 60);
  if (k === 'closure') return `closure ${g.name[i]!.slice(0, 40)}`;
  if (k.includes('string')) return '(string)';
  if (k === 'array' || k === 'hidden' || k === 'object shape') return `(${k}) ${g.name[i]!.slice(0, 40)}`;
  return `(${k})`;
}

/** Immediate dominators (Cooper, Harvey and Kennedy's iteration over reverse postorder), weak edges ignored. */
export function dominators(g: HeapGraph): { idom: Int32Array; retained: Float64Array } {
  const order = new Int32Array(g.count).fill(-1);
  const post: number[] = [];
  const stack: number[] = [0];
  const next = new Uint32Array(g.count);
  order[0] = 0;
  next[0] = g.firstEdge[0]!;
  while (stack.length > 0) {
    const v = stack[stack.length - 1]!;
    if (next[v]! < g.firstEdge[v + 1]!) {
      const e = next[v]!++;
      const w = g.targets[e]!;
      if (g.weak[e] || order[w] !== -1) continue;
      order[w] = 0;
      next[w] = g.firstEdge[w]!;
      stack.push(w);
    } else {
      stack.pop();
      order[v] = post.length;
      post.push(v);
    }
  }
  const preds: number[][] = Array.from({ length: g.count }, () => []);
  for (let v = 0; v < g.count; v++) {
    if (order[v] === -1) continue;
    for (let e = g.firstEdge[v]!; e < g.firstEdge[v + 1]!; e++) if (!g.weak[e] && order[g.targets[e]!] !== -1) preds[g.targets[e]!]!.push(v);
  }
  const idom = new Int32Array(g.count).fill(-1);
  idom[0] = 0;
  const intersect = (a: number, b: number): number => {
    while (a !== b) {
      while (order[a]! < order[b]!) a = idom[a]!;
      while (order[b]! < order[a]!) b = idom[b]!;
    }
    return a;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (let k = post.length - 2; k >= 0; k--) {
      const v = post[k]!;
      let d = -1;
      for (const p of preds[v]!) if (idom[p] !== -1) d = d === -1 ? p : intersect(p, d);
      if (d !== -1 && idom[v] !== d) {
        idom[v] = d;
        changed = true;
      }
    }
  }
  const retained = new Float64Array(g.count);
  for (const v of post) {
    retained[v]! += g.self[v]!;
    if (v !== 0 && idom[v]! >= 0) retained[idom[v]!]! += retained[v]!;
  }
  return { idom, retained };
}

/** Self size by label, largest first. */
export function byLabel(g: HeapGraph): Map<string, { count: number; bytes: number }> {
  const m = new Map<string, { count: number; bytes: number }>();
  for (let i = 0; i < g.count; i++) {
    const l = label(g, i);
    const v = m.get(l) ?? { count: 0, bytes: 0 };
    v.count++;
    v.bytes += g.self[i]!;
    m.set(l, v);
  }
  return m;
}

/** How the dominator chain reaches node i: the labels of its holders and the edge names between them. */
function holders(g: HeapGraph, idom: Int32Array, i: number, depth = 6): string {
  const chain: string[] = [];
  let v = i;
  for (let k = 0; k < depth && v > 0; k++) {
    const d = idom[v]!;
    if (d < 0) break;
    let edge = '?';
    for (let e = g.firstEdge[d]!; e < g.firstEdge[d + 1]!; e++) if (g.targets[e] === v) edge = g.edgeNames[e]!;
    chain.push(`${edge} ← ${label(g, d)}`);
    v = d;
  }
  return chain.join(' ← ');
}

const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(2)} MB`;

function report(path: string, top: number, before?: Map<string, { count: number; bytes: number }>): Map<string, { count: number; bytes: number }> {
  const g = readHeap(path);
  const { idom, retained } = dominators(g);
  const labels = byLabel(g);
  const total = [...labels.values()].reduce((a, v) => a + v.bytes, 0);
  console.log(`\n# ${path}: ${g.count} objects, ${mb(total)}`);
  const rows = [...labels.entries()].map(([l, v]) => ({ l, ...v, grew: v.bytes - (before?.get(l)?.bytes ?? 0), more: v.count - (before?.get(l)?.count ?? 0) }));
  console.log(`\n## by kind, self size${before ? ' (and growth since the previous snapshot)' : ''}`);
  for (const r of rows.sort((a, b) => b.bytes - a.bytes).slice(0, top)) console.log(`${mb(r.bytes).padStart(10)} ${String(r.count).padStart(8)}  ${r.l}${before ? `   (${r.grew >= 0 ? '+' : ''}${mb(r.grew)}, ${r.more >= 0 ? '+' : ''}${r.more})` : ''}`);
  if (before) {
    console.log('\n## grew the most');
    for (const r of rows.sort((a, b) => b.grew - a.grew).slice(0, top)) console.log(`${mb(r.grew).padStart(10)} ${String(r.more).padStart(8)}  ${r.l}`);
  }
  console.log('\n## largest retainers (objects, not the roots and their direct system parts)');
  const big = Array.from({ length: g.count }, (_, i) => i)
    .filter((i) => i > 0 && g.kind[i] !== 'synthetic' && retained[i]! > 256 * 1024)
    .sort((a, b) => retained[b]! - retained[a]!)
    .slice(0, top);
  for (const i of big) console.log(`${mb(retained[i]!).padStart(10)}  ${label(g, i)}  ${holders(g, idom, i)}`);
  return labels;
}

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

/** Allocated bytes by function (self), by package or source file, and by the innermost frame of src/ that led to them. */
function allocationReport(path: string, top: number): void {
  const { head } = JSON.parse(readFileSync(path, 'utf8')) as { head: ProfileNode };
  const byFunction = new Map<string, number>();
  const byModule = new Map<string, number>();
  const byOwnFrame = new Map<string, number>();
  let total = 0;
  const where = (f: ProfileNode['callFrame']): string => {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(f.url)?.[1];
    return pkg ?? (f.url.includes('/dist/src/') ? f.url.slice(f.url.indexOf('/dist/src/') + 1) : f.url.replace(/^.*\//, '') || '(native)');
  };
  const walk = (n: ProfileNode, own: string | undefined): void => {
    const f = n.callFrame;
    const mine = f.url.includes('/dist/src/') ? `${f.functionName || '(anonymous)'} ${where(f)}:${f.lineNumber + 1}` : own;
    if (n.selfSize > 0) {
      total += n.selfSize;
      const fn = `${f.functionName || '(anonymous)'} ${where(f)}:${f.lineNumber + 1}`;
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + n.selfSize);
      byModule.set(where(f), (byModule.get(where(f)) ?? 0) + n.selfSize);
      byOwnFrame.set(mine ?? '(no frame of src/)', (byOwnFrame.get(mine ?? '(no frame of src/)') ?? 0) + n.selfSize);
    }
    for (const c of n.children) walk(c, mine);
  };
  walk(head, undefined);
  console.log(`\n# ${path}: ${mb(total)} allocated (sampled)`);
  for (const [title, m] of [['by package or file', byModule], ['by innermost frame of src/', byOwnFrame], ['by function', byFunction]] as const) {
    console.log(`\n## ${title}`);
    for (const [k, v] of [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${mb(v).padStart(10)} ${((v / total) * 100).toFixed(1).padStart(5)}%  ${k}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const t = args.indexOf('--top');
  const top = t >= 0 ? Number(args[t + 1]) : 30;
  const files = args.filter((a, i) => !a.startsWith('--') && (t < 0 || i !== t + 1));
  let previous: Map<string, { count: number; bytes: number }> | undefined;
  for (const f of files) {
    if (f.endsWith('.heapprofile')) allocationReport(f, top);
    else previous = report(f, top, previous);
  }
}
