import type { ServerResponse } from 'node:http';
import { statusErrors } from './errors.js';
import type { ResourceRequest } from './request-info.js';
import { storageKey } from './resources.js';
import { matchesFields, matchesLabels, parseFieldSelector, parseLabelSelector } from './selectors.js';
import type { ObjectStore, StoreEvent } from './store.js';
import { toTable, wantsTable } from './table.js';
import type { KubeObject } from './types.js';

/** An open watch stream, so the server can end it when the simulator closes. */
export interface OpenWatch {
  end(): void;
}

type EventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/**
 * Serves `?watch=true`: newline-delimited `{"type","object"}` events, starting from the requested
 * resourceVersion (replayed from the store's history) or with synthetic ADDED events for what exists.
 * Objects moving into or out of the selector arrive as ADDED or DELETED, as from the real watch cache.
 */
export function serveWatch(
  store: ObjectStore,
  req: ResourceRequest,
  query: URLSearchParams,
  accept: string | undefined,
  res: ServerResponse,
  replacer?: (key: string, value: unknown) => unknown,
): OpenWatch {
  const { kind } = req;
  const labels = parseLabelSelector(query.get('labelSelector'));
  const fieldText = [query.get('fieldSelector'), req.name ? `metadata.name=${req.name}` : null].filter((s) => s).join(',');
  const fields = parseFieldSelector(fieldText, kind.kind);
  const namespace = kind.namespaced && req.namespace ? req.namespace : undefined;
  const matches = (o: KubeObject) =>
    (namespace === undefined || o.metadata.namespace === namespace) && matchesLabels(labels, o.metadata.labels) && matchesFields(fields, o);
  const asTable = wantsTable(accept);

  const rvParam = query.get('resourceVersion') ?? '';
  const sendInitial = query.get('sendInitialEvents') === 'true' || rvParam === '' || rvParam === '0';
  let replay: StoreEvent[] = [];
  if (!sendInitial) {
    const since = store.eventsSince(Number(rvParam));
    if (since === undefined) throw statusErrors.gone(`too old resource version: ${rvParam} (${store.resourceVersion})`);
    replay = since;
  }

  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
  const send = (type: EventType, object: unknown) => {
    const payload = asTable && (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED') ? toTable(kind, [object as KubeObject], (object as KubeObject).metadata.resourceVersion ?? '', query.get('includeObject')) : object;
    res.write(`${JSON.stringify({ type, object: payload }, replacer)}\n`);
  };
  const onEvent = (event: StoreEvent) => {
    if (storageKey(event.kind) !== storageKey(kind)) return;
    const is = matches(event.object);
    const was = event.previous !== undefined && matches(event.previous);
    if (event.type === 'ADDED' && is) send('ADDED', event.object);
    else if (event.type === 'DELETED' && is) send('DELETED', event.object);
    else if (event.type === 'MODIFIED') {
      if (is && was) send('MODIFIED', event.object);
      else if (is) send('ADDED', event.object);
      else if (was) send('DELETED', event.object);
    }
  };

  if (sendInitial) {
    for (const obj of store.list(kind, namespace)) if (matches(obj)) send('ADDED', obj);
    if (query.get('sendInitialEvents') === 'true') {
      send('BOOKMARK', {
        kind: kind.kind,
        apiVersion: kind.group === '' ? kind.version : `${kind.group}/${kind.version}`,
        metadata: { resourceVersion: String(store.resourceVersion), annotations: { 'k8s.io/initial-events-end': 'true' } },
      });
    }
  } else {
    for (const event of replay) onEvent(event);
  }
  const unsubscribe = store.subscribe(onEvent);

  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    unsubscribe();
    clearTimeout(timer);
    res.end();
  };
  const timeoutSeconds = Number(query.get('timeoutSeconds') ?? '0');
  // Without a timeout the real API server still ends a watch after 30 to 60 minutes; clients re-watch.
  const timer = setTimeout(end, (timeoutSeconds > 0 ? timeoutSeconds : 1800) * 1000);
  timer.unref();
  res.on('close', end);
  return { end };
}
