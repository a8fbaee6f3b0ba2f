import type { ClusterGateway, PodState } from '../cluster/gateway.js';
import { customKinds } from '../cluster/gateway.js';
import { ClusterError } from '../cluster/errors.js';
import type { NamespaceName, PlatformNames } from '../platform-names.js';
import { readPlatform, type PlatformSnapshot } from './platform-reads.js';
import { hasLabels, Unreadable, type ObservedCrd, type ListedKind, type ListScope, type LogSource, type LogTail, type Read, type Snapshot, type UnknownReason } from './detectors/detector.js';

/**
 * The scan's reads: every detector's declared reads merged (each list once per namespace, or once for
 * the whole cluster when any detector wants the whole cluster, which then serves the namespaces too),
 * carried out together, and handed to every detector as one snapshot.
 */

/** At most this many pods per log source: a tail of each, never every replica of a large deployment. */
const maxLogPods = 5;

type Outcome<T> = { ok: true; value: T } | { ok: false; error: Unreadable };

function unreadable(err: unknown): Unreadable {
  if (err instanceof Unreadable) return err;
  if (err instanceof ClusterError) {
    const reason: UnknownReason =
      err.code === 'forbidden' ? 'forbidden' : err.code === 'not-found' ? 'not-installed' : ['unreachable', 'timeout', 'throttled', 'unauthorized'].includes(err.code) ? 'unreachable' : 'error';
    return new Unreadable(reason, err.message);
  }
  return new Unreadable('error', err instanceof Error ? err.message : String(err));
}

async function attempt<T>(fn: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (err) {
    return { ok: false, error: unreadable(err) };
  }
}

type ListKind = ListedKind | 'custom:rollout';
const listKey = (kind: ListKind, scope: ListScope) => `${kind}@${scope}`;
const logKey = (source: LogSource, namespace: string) => `logs@${namespace}@${'label' in source ? `label:${source.label}` : `pod:${source.pod}`}`;

/** Reads everything the reads ask for, each once; returns the snapshot detectors judge from. */
export async function readSnapshot(gateway: ClusterGateway, names: PlatformNames, reads: readonly Read[], now: Date): Promise<Snapshot> {
  const lists = new Map<string, { kind: ListKind; scope: ListScope }>();
  const certs = new Map<string, { name: string; namespace: string; key: string }>();
  const logs = new Map<string, { source: LogSource; namespace: NamespaceName; tailLines: number }>();
  let wantsVersion = false;
  const crds = new Set<ObservedCrd>();
  for (const r of reads) {
    if ('dashboard' in r || 'database' in r) continue; // read by readPlatform
    if ('serverVersion' in r) {
      wantsVersion = true;
    } else if ('crd' in r) {
      crds.add(r.crd);
    } else if ('list' in r) {
      const kind: ListKind = r.list === 'custom' ? `custom:${r.custom}` : r.list;
      lists.set(listKey(kind, r.in), { kind, scope: r.in });
    } else if ('certificate' in r) {
      certs.set(`${r.in}/${r.certificate}/${r.key}`, { name: names[r.certificate], namespace: names[r.in], key: r.key });
    } else {
      const key = logKey(r.logs, r.in);
      logs.set(key, { source: r.logs, namespace: r.in, tailLines: Math.max(r.tailLines, logs.get(key)?.tailLines ?? 0) });
      lists.set(listKey('pods', r.in), { kind: 'pods', scope: r.in });
    }
  }
  // A list of the whole cluster answers for each namespace: one call per kind, not one per namespace.
  const served = new Map<string, { kind: ListKind; scope: ListScope }>();
  for (const [key, l] of [...lists]) {
    if (l.scope === 'cluster' || !lists.has(listKey(l.kind, 'cluster'))) continue;
    served.set(key, l);
    lists.delete(key);
  }

  const read = (kind: ListKind, ns: string | undefined): Promise<unknown> => {
    if (kind === 'pods') return gateway.observe.pods(ns);
    if (kind === 'jobs') return gateway.observe.jobs(ns);
    if (kind === 'warnings') return gateway.observe.warnings(ns);
    if (kind === 'deployments') return gateway.observeObjects.deployments(ns);
    if (kind === 'ingresses') return gateway.observeObjects.ingresses(ns);
    if (kind === 'services') return gateway.observeObjects.services(ns);
    if (kind === 'backendconfigs') return gateway.observeObjects.backendConfigs(ns);
    return gateway.observe.customObjects(customKinds.rollout, ns);
  };
  const listed = new Map<string, Outcome<unknown>>();
  const certified = new Map<string, Outcome<unknown>>();
  let version: Outcome<unknown> | undefined;
  const definitions = new Map<string, Outcome<unknown>>();
  const platformRead: Promise<PlatformSnapshot> = readPlatform(gateway, names, reads, unreadable);
  await Promise.all([
    platformRead,
    ...[...crds].map(async (name) => definitions.set(name, await attempt(() => gateway.observeObjects.crd(name)))),
    ...(wantsVersion ? [(async () => void (version = await attempt(() => gateway.observeObjects.serverVersion())))()] : []),
    ...[...lists].map(async ([key, l]) => listed.set(key, await attempt(() => read(l.kind, l.scope === 'cluster' ? undefined : names[l.scope])))),
    ...[...certs].map(async ([key, c]) => certified.set(key, await attempt(() => gateway.observe.certificate(c.namespace, c.name, c.key)))),
  ]);

  // Where the whole cluster may not be listed (a cluster without the ClusterRole), the platform's
  // namespaces still may: those detectors keep their answer, only the cluster-wide ones are unknown.
  await Promise.all(
    [...served].map(async ([key, l]) => {
      const whole = listed.get(listKey(l.kind, 'cluster'));
      if (whole && !whole.ok && whole.error.reason === 'forbidden') listed.set(key, await attempt(() => read(l.kind, names[l.scope as NamespaceName])));
    }),
  );

  const fromList = <T extends { namespace?: string; metadata?: { namespace?: string } }>(kind: ListKind, scope: ListScope): T[] => {
    const own = listed.get(listKey(kind, scope));
    const whole = own ?? listed.get(listKey(kind, 'cluster'));
    if (!whole) throw new Error(`a detector read ${kind} in ${scope} without declaring it`);
    if (!whole.ok) throw whole.error;
    const items = whole.value as T[] | undefined;
    if (items === undefined) return undefined as unknown as T[];
    if (own || scope === 'cluster') return items;
    const ns = names[scope];
    return items.filter((o) => (o.namespace ?? o.metadata?.namespace) === ns);
  };

  const tails = new Map<string, Outcome<LogTail[]>>();
  await Promise.all(
    [...logs].map(async ([key, l]) => {
      const ns = names[l.namespace];
      const pods = attemptSync(() => fromList<PodState>('pods', l.namespace));
      if (!pods.ok) return tails.set(key, pods);
      const chosen = pods.value.filter((p) => p.phase === 'Running' && ('label' in l.source ? hasLabels(p, names[l.source.label]) : p.name === names[l.source.pod])).slice(0, maxLogPods);
      const jobs = chosen.flatMap((pod) => pod.logContainers.map((container) => ({ pod, container })));
      const read = await Promise.all(jobs.map(async (j) => ({ ...j, out: await attempt(() => gateway.observe.logTail(ns, j.pod.name, j.container, l.tailLines)) })));
      const failed = read.find((r) => !r.out.ok);
      if (failed && !failed.out.ok) return tails.set(key, { ok: false, error: failed.out.error });
      return tails.set(key, { ok: true, value: read.map((r) => ({ pod: r.pod, container: r.container, lines: r.out.ok ? r.out.value : [] })) });
    }),
  );

  const certificate: Snapshot['certificate'] = (name, namespace, key) => {
    const out = certified.get(`${namespace}/${name}/${key}`);
    if (!out) throw new Error(`a detector read the certificate ${name}/${key} without declaring it`);
    if (!out.ok) throw out.error;
    return out.value as ReturnType<Snapshot['certificate']>;
  };
  return {
    ...(await platformRead),
    names,
    now,
    pods: (scope) => fromList('pods', scope),
    jobs: (scope) => fromList('jobs', scope),
    warnings: (scope) => fromList('warnings', scope),
    custom: (kind, scope) => fromList(`custom:${kind}`, scope),
    deployments: (scope) => fromList('deployments', scope),
    ingresses: (scope) => fromList('ingresses', scope),
    services: (scope) => fromList('services', scope),
    backendConfigs: (scope) => fromList('backendconfigs', scope),
    crd(name) {
      const out = definitions.get(name);
      if (!out) throw new Error(`a detector read the definition ${name} without declaring it`);
      if (!out.ok) throw out.error;
      return out.value as ReturnType<Snapshot['crd']>;
    },
    serverVersion() {
      if (!version) throw new Error('a detector read the server version without declaring it');
      if (!version.ok) throw version.error;
      return version.value as ReturnType<Snapshot['serverVersion']>;
    },
    certificate,
    logs(source, namespace) {
      const out = tails.get(logKey(source, namespace));
      if (!out) throw new Error(`a detector read logs of ${JSON.stringify(source)} without declaring it`);
      if (!out.ok) throw out.error;
      return out.value;
    },
  };
}

function attemptSync<T>(fn: () => T): Outcome<T> {
  try {
    return { ok: true, value: fn() };
  } catch (err) {
    return { ok: false, error: unreadable(err) };
  }
}
