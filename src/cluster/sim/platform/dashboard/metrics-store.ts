/**
 * The cluster's metrics store as the dashboard's data source proxy reaches it (GET
 * /api/datasources/proxy/:id/<path>, which the dashboard forwards to the data source's address):
 * Prometheus's HTTP API for instant queries of the form `count(<selector>)`, the query the doctor asks.
 * Answers follow Prometheus's docs/querying/api.md: `{"status":"success","data":{"resultType":"vector",
 * "result":[…]}}`, where an aggregation over no series is an empty vector, and a query it cannot
 * evaluate is 400 `{"status":"error","errorType":"bad_data","error":…}`. A label a series does not carry
 * matches the empty string, as in Prometheus, so `image!=""` keeps only series with an image label.
 *
 * The series are cAdvisor's for the containers of the cluster's running pods (the names kubelet's
 * /metrics/cadvisor uses). The CPU series carry no `image` label and the memory series do: the cluster
 * of guide entry 11, where the CPU graphs filtered on `image!=""` are empty while the memory graphs show.
 */
import type { KubeObject } from '../../apiserver/types.js';
import type { Answer } from './state.js';

/** One series: its metric name and labels. */
export interface Series {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
}

/** The series cAdvisor reports for the containers of the running pods; see the module comment. */
export function containerSeries(pods: readonly KubeObject[]): Series[] {
  const out: Series[] = [];
  for (const pod of pods) {
    if ((pod['status'] as { phase?: string } | undefined)?.phase !== 'Running') continue;
    const containers = ((pod['spec'] as { containers?: { name: string; image?: string }[] } | undefined)?.containers ?? []);
    for (const c of containers) {
      const labels = { namespace: pod.metadata.namespace ?? '', pod: pod.metadata.name ?? '', container: c.name };
      out.push({ name: 'container_cpu_usage_seconds_total', labels });
      out.push({ name: 'container_cpu_cfs_throttled_seconds_total', labels });
      out.push({ name: 'container_memory_working_set_bytes', labels: { ...labels, image: c.image ?? '' } });
    }
  }
  return out;
}

type Matcher = (labels: Readonly<Record<string, string>>) => boolean;

const selectorPattern = /^\s*count\s*\(\s*([A-Za-z_:][A-Za-z0-9_:]*)\s*(?:\{([^{}]*)\}\s*)?\)\s*$/;
const matcherPattern = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(=~|!~|!=|=)\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')\s*$/;

function matcherOf(text: string): Matcher | undefined {
  const m = matcherPattern.exec(text);
  if (!m) return undefined;
  const [, label, op] = m;
  const value = (m[3] ?? m[4] ?? '').replace(/\\(.)/g, '$1');
  const of = (labels: Readonly<Record<string, string>>) => labels[label!] ?? '';
  if (op === '=') return (l) => of(l) === value;
  if (op === '!=') return (l) => of(l) !== value;
  // Prometheus's =~ is a fully anchored RE2 expression; the simulated store takes the forms dashboards
  // write (alternatives of literal values, each maybe ending in `.*` or `.+`) and refuses the rest,
  // rather than hand any expression to a backtracking engine.
  const alternatives = value.split('|').map((a) => /^([A-Za-z0-9_:/-]*)(\.\*|\.\+)?$/.exec(a));
  if (alternatives.some((a) => a === null)) return undefined;
  const fits = (v: string, [, prefix, rest]: RegExpExecArray) => (rest === undefined ? v === prefix : v.startsWith(prefix!) && (rest === '.*' || v.length > prefix!.length));
  const re = { test: (v: string) => alternatives.some((a) => fits(v, a!)) };
  return op === '=~' ? (l) => re.test(of(l)) : (l) => !re.test(of(l));
}

const badData = (error: string): Answer => ({ status: 400, body: { status: 'error', errorType: 'bad_data', error } });

/** Prometheus's answer to GET /api/v1/query over these series; see the module comment. */
export function answerQuery(path: string, query: URLSearchParams, series: readonly Series[], now = new Date()): Answer {
  if (path !== '/api/v1/query') return { status: 404, body: '404 page not found' };
  const expr = query.get('query') ?? '';
  const m = selectorPattern.exec(expr);
  if (!m) return badData(`the metrics store of the simulated cluster evaluates count(<selector>) only, not ${JSON.stringify(expr.slice(0, 80))}`);
  const texts = (m[2] ?? '').split(',').filter((t) => t.trim() !== '');
  const matchers = texts.map(matcherOf);
  if (matchers.some((x) => x === undefined)) return badData(`invalid label matchers in ${JSON.stringify(expr.slice(0, 80))}`);
  const n = series.filter((s) => s.name === m[1] && matchers.every((x) => x!(s.labels))).length;
  const result = n === 0 ? [] : [{ metric: {}, value: [now.getTime() / 1000, String(n)] }];
  return { status: 200, body: { status: 'success', data: { resultType: 'vector', result } } };
}
