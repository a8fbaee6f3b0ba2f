import type { Permission } from '../../remedies/steps/step.js';
import { certificateExpiry } from './certificate-expiry.js';
import type { DetectorKind, DetectorOf, Read, Snapshot, Verdict } from './detector.js';
import { imagePullFailing } from './image-pull.js';
import { cpuImageFilter, dashboardOrganisation } from './dashboard.js';
import { databaseDropRefused } from './drop-refused.js';
import { jobsIncomplete } from './jobs-incomplete.js';
import { lastAppliedJson } from './last-applied-json.js';
import { logLines } from './log-lines.js';
import { gceBackendTimeout, ingressBodySize } from './ingress.js';
import { notObservable } from './not-observable.js';
import { controllerVersion, crdOutdated, missingArgument } from './workloads.js';
import { stalledCycles } from './stalled-cycles.js';

/**
 * The registry of detector kinds. Adding a kind is its file (src/doctor/detectors/<kind>.ts, declared
 * with defineDetector) and its name here; the catalogue's Detector type, the worker's RBAC and the
 * checks of the catalogue's detectors follow. The catalogue imports only the Detector type.
 */
const declared = {
  notObservable,
  jobsIncomplete,
  logLines,
  imagePullFailing,
  certificateExpiry,
  lastAppliedJson,
  stalledCycles,
  ingressBodySize,
  gceBackendTimeout,
  missingArgument,
  controllerVersion,
  crdOutdated,
  dashboardOrganisation,
  cpuImageFilter,
  databaseDropRefused,
};

/** One detector of any kind the registry holds. */
export type Detector = DetectorOf<(typeof declared)[keyof typeof declared]>;

export const detectorKinds: { readonly [K in Detector['kind']]: DetectorKind<Extract<Detector, { kind: K }>> } = Object.freeze(declared);

function kindOf<K extends Detector['kind']>(kind: K): DetectorKind<Extract<Detector, { kind: K }>> {
  return detectorKinds[kind];
}

export function isDetectorKind(name: string): name is Detector['kind'] {
  return Object.hasOwn(detectorKinds, name);
}

export const readsOf = (d: Detector): Read[] => kindOf(d.kind).reads(d as never);
export const detectorPermissions = (d: Detector): Permission[] => kindOf(d.kind).permissions(d as never);
export const detect = (d: Detector, snapshot: Snapshot): Verdict => kindOf(d.kind).detect(d as never, snapshot);
/** The entry's fix parameters a detector's verdicts may give values for. */
export const fixParamsOf = (d: Detector): string[] => kindOf(d.kind).fixParams?.(d as never) ?? [];

/** What is wrong with the entries' detectors as their kinds see them. */
export function detectorProblems(entries: readonly { readonly id: string; readonly detector?: { readonly kind: string }; readonly params?: readonly { readonly name: string }[] }[]): string[] {
  const problems: string[] = [];
  for (const e of entries) {
    if (!e.detector) continue;
    if (!isDetectorKind(e.detector.kind)) {
      problems.push(`${e.id}: no detector kind is named "${e.detector.kind}"`);
      continue;
    }
    const parsed = kindOf(e.detector.kind).detector.safeParse(e.detector);
    if (!parsed.success) {
      problems.push(`${e.id}: its detector is not valid: ${parsed.error.issues[0]?.path.join('.') || '(detector)'}: ${parsed.error.issues[0]?.message}`);
      continue;
    }
    for (const name of fixParamsOf(parsed.data as Detector).filter((n) => !(e.params ?? []).some((p) => p.name === n))) {
      problems.push(`${e.id}: its detector gives a value for the fix parameter "${name}", which the entry does not declare`);
    }
  }
  return problems;
}
