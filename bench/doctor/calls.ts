import type { RequestRecord } from '../../src/cluster/sim/index.js';

/** One API call of a scan, as the bar counts it. */
export type CallKind = { kind: 'list'; resource: string; scope: string } | { kind: 'get'; what: string } | { kind: 'log'; pod: string; tailLines?: number; limitBytes?: number };

/**
 * Reads a request path the way the API server routes it: `/api/v1/[namespaces/NS/]RESOURCE[/NAME[/SUB]]`
 * or `/apis/GROUP/VERSION/…`. Without a name it is a list; `…/NAME/log` a log read; anything else a named get.
 */
export function classify(r: RequestRecord): CallKind {
  const parts = r.path.split('/').filter((p) => p !== '');
  const query = new URLSearchParams(r.query);
  let rest: string[];
  let group: string;
  if (parts[0] === 'api') [group, rest] = ['', parts.slice(2)];
  else if (parts[0] === 'apis') [group, rest] = [parts[1] ?? '', parts.slice(3)];
  else return { kind: 'get', what: r.path };
  let scope = 'cluster';
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    scope = rest[1] ?? '';
    rest = rest.slice(2);
  }
  const resource = `${rest[0] ?? ''}${group ? `.${group}` : ''}`;
  if (rest.length === 1) return { kind: 'list', resource, scope };
  if (rest[2] === 'log') {
    const n = (key: string) => (query.has(key) ? Number(query.get(key)) : undefined);
    return { kind: 'log', pod: `${scope}/${rest[1]}`, ...(n('tailLines') !== undefined ? { tailLines: n('tailLines') } : {}), ...(n('limitBytes') !== undefined ? { limitBytes: n('limitBytes') } : {}) };
  }
  return { kind: 'get', what: `${resource}/${scope === 'cluster' ? '' : `${scope}/`}${rest.slice(1).join('/')}` };
}

/** A scan's calls, counted. */
export interface CallSummary {
  readonly total: number;
  /** List calls by resource (`pods`, `deployments.apps`), each with the scopes listed. */
  readonly lists: ReadonlyMap<string, readonly string[]>;
  readonly gets: readonly string[];
  readonly logs: readonly { pod: string; tailLines?: number; limitBytes?: number }[];
  /** Every resource listed at most once. */
  readonly onePerKind: boolean;
  /** Every log read has a tail and a byte limit. */
  readonly logsBounded: boolean;
  /** Calls that failed (status ≥ 400). */
  readonly failed: number;
}

export function summarise(records: readonly RequestRecord[]): CallSummary {
  const lists = new Map<string, string[]>();
  const gets: string[] = [];
  const logs: { pod: string; tailLines?: number; limitBytes?: number }[] = [];
  for (const r of records) {
    const c = classify(r);
    if (c.kind === 'list') lists.set(c.resource, [...(lists.get(c.resource) ?? []), c.scope]);
    else if (c.kind === 'get') gets.push(c.what);
    else logs.push(c);
  }
  return {
    total: records.length,
    lists,
    gets: gets.sort(),
    logs,
    onePerKind: [...lists.values()].every((scopes) => scopes.length <= 1),
    logsBounded: logs.every((l) => l.tailLines !== undefined && l.tailLines <= 1000 && l.limitBytes !== undefined),
    failed: records.filter((r) => r.status >= 400).length,
  };
}
