import { adminPassword } from './entries/admin-password.js';
import { adminPasswordNoBase64 } from './entries/admin-password-no-base64.js';
import { adminPasswordReset } from './entries/admin-password-reset.js';
import { adminPasswordResetLegacy } from './entries/admin-password-reset-legacy.js';
import { appMetricsAbsent } from './entries/app-metrics-absent.js';
import { buildLogs } from './entries/build-logs.js';
import { chartRepoTlsHandshake } from './entries/chart-repo-tls-handshake.js';
import { commitsExit128 } from './entries/commits-exit-128.js';
import { cpuGraphsEmpty } from './entries/cpu-graphs-empty.js';
import { dashboardsMissing } from './entries/dashboards-missing.js';
import { databaseDropBlocked } from './entries/database-drop-blocked.js';
import { databaseImagePull } from './entries/database-image-pull.js';
import { datasourceUpdateFailed } from './entries/datasource-update-failed.js';
import { deploymentTemplateBlank } from './entries/deployment-template-blank.js';
import { discoverNoCharts } from './entries/discover-no-charts.js';
import { gitSensorStuck } from './entries/git-sensor-stuck.js';
import { gitSensorVolumeFull } from './entries/git-sensor-volume-full.js';
import { gitopsCertificateExpired } from './entries/gitops-certificate-expired.js';
import { gitopsPipelineFails } from './entries/gitops-pipeline-fails.js';
import { imagePullPrivateRegistry } from './entries/image-pull-private-registry.js';
import { installJobsFailed } from './entries/install-jobs-failed.js';
import { loadBalancerUnauthorized } from './entries/load-balancer-unauthorized.js';
import { metricsServerTls } from './entries/metrics-server-tls.js';
import { rolloutCrdsOutdated } from './entries/rollout-crds-outdated.js';
import { rolloutInvalidJson } from './entries/rollout-invalid-json.js';
import { rolloutStableRs } from './entries/rollout-stable-rs.js';
import { ssoLogin } from './entries/sso-login.js';
import { ssoNatAllowlist } from './entries/sso-nat-allowlist.js';
import { staleSessionCookie } from './entries/stale-session-cookie.js';
import { terminalDisconnects } from './entries/terminal-disconnects.js';
import { upgradeCannotPatchDatabase } from './entries/upgrade-cannot-patch-database.js';
import { uploadTooLarge } from './entries/upload-too-large.js';
import type { CatalogueEntry, Stage } from './model.js';
import { editDistance } from '../spelling.js';

/**
 * The catalogue: section 7's entries in the guide's order, then section 5's procedures. Checked once
 * at load: a broken definition stops start-up rather than surfacing in the middle of a repair.
 */
export const catalogue: readonly CatalogueEntry[] = Object.freeze(
  checkCatalogue([
  installJobsFailed,
  rolloutCrdsOutdated,
  ssoLogin,
  buildLogs,
  dashboardsMissing,
  staleSessionCookie,
  discoverNoCharts,
  datasourceUpdateFailed,
  databaseImagePull,
  gitSensorStuck,
  cpuGraphsEmpty,
  uploadTooLarge,
  loadBalancerUnauthorized,
  appMetricsAbsent,
  metricsServerTls,
  databaseDropBlocked,
  adminPasswordNoBase64,
  upgradeCannotPatchDatabase,
  rolloutStableRs,
  imagePullPrivateRegistry,
  terminalDisconnects,
  gitopsCertificateExpired,
  commitsExit128,
  gitSensorVolumeFull,
  rolloutInvalidJson,
  chartRepoTlsHandshake,
  deploymentTemplateBlank,
  gitopsPipelineFails,
  adminPassword,
  adminPasswordReset,
  adminPasswordResetLegacy,
  ssoNatAllowlist,
  ]),
);

const byId = new Map(catalogue.map((e) => [e.id, e]));
const byRef = new Map(catalogue.flatMap((e) => guideRefs(e).map((ref) => [ref, e] as const)));

/** Every place of the guide an entry answers to: its own section first, then the others. */
export function guideRefs(entry: CatalogueEntry): readonly string[] {
  return [entry.ref, ...(entry.alsoRefs ?? [])];
}

/** The entry of that id, or of that guide reference (`7.4`, `5.2`), or undefined. */
export function findEntry(id: string): CatalogueEntry | undefined {
  const key = id.trim().toLowerCase();
  return byId.get(key) ?? byRef.get(key);
}

/** The stage of an entry, or undefined. */
export function findStage(entry: CatalogueEntry, stageId: string): Stage | undefined {
  return entry.stages.find((s) => s.id === stageId);
}

/**
 * Throws on an inconsistent catalogue; returns it unchanged otherwise. What only a step's kind knows
 * (its schema, the parameters it reads) is checked against the kinds by stepProblems
 * (remedies/steps/registry.ts), where they are loaded.
 */
export function checkCatalogue(entries: CatalogueEntry[]): CatalogueEntry[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  // `list` shows an entry under each reference and `explain 5.5` / `fix 5.5` resolve it: a reference
  // claimed by two entries would send a person to one while the list shows the other.
  const claimedBy = new Map<string, string>();
  for (const e of entries) {
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(e.id)) problems.push(`${e.id}: id must be a lower-case slug`);
    if (ids.has(e.id)) problems.push(`${e.id}: duplicate id`);
    ids.add(e.id);
    for (const ref of guideRefs(e)) {
      const other = claimedBy.get(ref);
      if (other !== undefined && other !== e.id) problems.push(`guide ${ref} is claimed by ${other} and ${e.id}`);
      claimedBy.set(ref, e.id);
    }
    if (e.stages.length === 0) problems.push(`${e.id}: no stages`);
    for (const p of e.params ?? []) {
      if (!new RegExp(p.pattern).test(p.example)) problems.push(`${e.id}: the example of parameter ${p.name} does not match its pattern`);
      if (p.default !== undefined && !new RegExp(p.pattern).test(p.default)) problems.push(`${e.id}: the default of parameter ${p.name} does not match its pattern`);
    }
    const stageIds = new Set(e.stages.map((s) => s.id));
    if (stageIds.size !== e.stages.length) problems.push(`${e.id}: duplicate stage id`);
    for (const s of e.stages) {
      if (s.steps.length === 0) problems.push(`${e.id}/${s.id}: no steps`);
      for (const step of s.steps) {
        if (step.risk !== 'read-only' && step.approval === 'none') problems.push(`${e.id}/${s.id}: a ${step.risk} step must be approved`);
      }
      for (const c of s.then?.choices ?? []) {
        if ('stage' in c.then && !stageIds.has(c.then.stage)) problems.push(`${e.id}/${s.id}: choice ${c.id} leads to unknown stage ${c.then.stage}`);
      }
    }
  }
  if (problems.length > 0) throw new Error(`The catalogue is inconsistent:\n${problems.join('\n')}`);
  return entries;
}

/** Words that say nothing about which entry is meant ("not-working", "the-app", "error"): never a shared word. */
const GENERIC_WORDS = new Set(
  'not working works work error errors failed failing fails fail failure cannot broken issue problem fix fixed the and for with from when what how why ready running stuck app apps after before new old all any does doesn dont into this that'.split(' '),
);
/** A word in the texts of more entries than this tells them apart from none. */
const TELLING_SPREAD = 5;

/** One entry's words, for closestIds: its id's words, its title's and phrases' words, and neighbouring words joined. */
const entryWords = catalogue.map((e) => {
  const list = `${e.id} ${e.title} ${e.signatures.phrases.join(' ')}`.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 0);
  // "gitsensor" is git-sensor written without its dash: two neighbouring words of three letters or more, joined.
  // Not two small ones ("no such" is no word of its own, so "nosuch" shares nothing).
  const joinedPairs = list.slice(1).flatMap((w, i) => (w.length > 2 && list[i]!.length > 2 ? [list[i]! + w] : []));
  return { id: e.id, idWords: e.id.split('-'), words: new Set([...list, ...joinedPairs]) };
});

/** Whether a typed word names one of the entry's words: whole, its id's word in the plural ("log" of "logs"), or a long word's start. */
function names(entry: (typeof entryWords)[number], word: string): boolean {
  return entry.words.has(word) || entry.idWords.some((w) => w === `${word}s` || (word.length >= 5 && w.length > word.length && w.startsWith(word)));
}

/**
 * The ids closest to what a user typed, best first: shared telling words (whole words of the id, title or
 * phrases, in few entries, not generic ones) count most, then spelling distance. Used to answer an unknown id.
 */
export function closestIds(input: string, limit = 3): string[] {
  const typed = input.trim().toLowerCase();
  const words = typed.split(/[^a-z0-9]+/).filter((w) => w.length > 2 && !GENERIC_WORDS.has(w));
  const telling = words.filter((w) => {
    const spread = entryWords.filter((e) => names(e, w)).length;
    return spread > 0 && spread <= TELLING_SPREAD;
  });
  const scored = entryWords.map((e) => ({ id: e.id, shared: telling.filter((w) => names(e, w)).length, dist: editDistance(typed, e.id) }));
  scored.sort((a, b) => b.shared - a.shared || a.dist - b.dist || a.id.localeCompare(b.id));
  // Only ids that share as many telling words as the best, or are a near-spelling: suggesting unrelated ids helps nobody.
  const most = scored[0]?.shared ?? 0;
  const near = (s: { shared: number; dist: number; id: string }) => (s.shared > 0 && s.shared === most) || s.dist <= Math.max(2, Math.floor(Math.max(typed.length, s.id.length) * 0.4));
  return scored.filter(near).slice(0, limit).map((s) => s.id);
}
