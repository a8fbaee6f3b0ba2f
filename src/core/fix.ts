import { findEntry } from '../catalogue/index.js';
import type { CatalogueEntry } from '../catalogue/model.js';
import { resolveParams } from '../catalogue/params.js';
import { findCluster, type Config } from '../config.js';
import type { RemedyRequest } from '../jobs/requests.js';
import { shownBack } from '../redact.js';
import type { RemedyCoordinator } from '../jobs/lifecycle/coordinator.js';
import { unknownEntryView } from './catalogue.js';
import { fixCommand, placeholderOf, requiredParams } from './fix-hint.js';
import { code, joined, says, t, ticked, type Inline, type View } from './view.js';

/** What a person asked to fix, from a command, a terminal line or a "Plan fix" choice. */
export interface FixAsk {
  readonly entryId: string;
  readonly cluster?: string;
  readonly params?: Readonly<Record<string, string>>;
}

/** The one wording of "no such cluster" (config.ts, noSuchClusterText), with code spans for names. */
export function noSuchCluster(name: string, config: Pick<Config, 'clusters'>): Inline {
  return t`There is no cluster ${code(shownBack(name))}. Configured clusters: ${joined(config.clusters.map((c) => [code(c.name)]), ', ')}.`;
}

/** A fix request that passed the checks: its entry, its cluster and its parameters with the defaults filled in. */
export type CheckedFix = { ok: true; entry: CatalogueEntry; cluster: string; params: Record<string, string> } | { ok: false; view: View };

/** Checks a fix request once, without side effects: the entry, the cluster, the parameters. */
export function checkFix(config: Config, ask: FixAsk): CheckedFix {
  const entry = findEntry(ask.entryId);
  if (!entry) return { ok: false, view: unknownEntryView(ask.entryId) };
  const cluster = ask.cluster ?? config.defaultCluster;
  if (!findCluster(config, cluster)) return { ok: false, view: says(noSuchCluster(cluster, config)) };
  const params = resolveParams(entry, ask.params ?? {});
  if (params.ok) return { ok: true, entry, cluster, params: params.params };
  // A "Plan fix" click (or a bare `fix <id>`) cannot carry a value: the answer is the line to type instead.
  const missing = requiredParams(entry.id).filter((p) => ask.params?.[p.name] === undefined);
  const retry: Inline = missing.length > 0 ? t` Type ${code(`/platform ${fixCommand(entry.id, cluster, ask.params)}`)}, with ${missing.length === 1 ? 'the value' : 'the values'} in place of ${joined(missing.map((p) => [code(placeholderOf(p))]), ' and ')}.` : [];
  return { ok: false, view: says([...ticked(params.message), ...retry]) };
}

/** The queue side's part of a fix, as the core uses it (the coordinator's public method). */
export type FixDesk = Pick<RemedyCoordinator, 'requestFix'>;
type DeskRequest = Parameters<RemedyCoordinator['requestFix']>[0];

/**
 * Checks a fix request, then hands it to the queue side, which checks what needs its state (the
 * person's limit, whether the entry is being fixed already) and announces it through `announce`.
 */
export async function requestFix(
  desk: FixDesk,
  config: Config,
  ask: FixAsk & Pick<DeskRequest, 'requestedBy' | 'context' | 'announce'>,
): Promise<{ ok: true; request: RemedyRequest; entry: CatalogueEntry } | { ok: false; view: View }> {
  const checked = checkFix(config, ask);
  if (!checked.ok) return checked;
  const { requestedBy, context, announce, params } = ask;
  const started = await desk.requestFix({ entryId: checked.entry.id, cluster: checked.cluster, requestedBy, ...(params ? { params } : {}), ...(context ? { context } : {}), ...(announce ? { announce } : {}) });
  return started.ok ? { ok: true, request: started.request, entry: checked.entry } : { ok: false, view: says(ticked(started.message, 'code', { people: true })) };
}
