import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

/** deploy/ of this repository. */
export const deployDir = fileURLToPath(new URL('../../deploy/', import.meta.url));

/** Every kustomization an admin may apply, and which parts of platform-medic each holds. */
export const overlays = {
  'base/bot': ['bot'],
  'base/worker': ['worker'],
  'base/redis': ['redis'],
  'overlays/example/control': ['bot', 'redis'],
  'overlays/example/prod-eu': ['worker'],
  'overlays/example/prod-us': ['worker'],
  'overlays/external-redis': ['bot'],
  'overlays/socket-mode': ['bot', 'redis'],
} as const;
export type OverlayPath = keyof typeof overlays;

/** A Kubernetes object as YAML gives it. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [key: string]: unknown;
}

export const kubectlAvailable = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;

/** Parses a multi-document YAML text into objects (skipping empty documents). */
export function parseObjects(text: string): K8sObject[] {
  return parseAllDocuments(text)
    .map((d) => d.toJS() as K8sObject | null)
    .filter((d): d is K8sObject => d !== null);
}

const renders = new Map<string, K8sObject[]>();

/** `kubectl kustomize deploy/<path>`, offline; throws with kubectl's message when it fails. */
export function render(path: OverlayPath): K8sObject[] {
  const cached = renders.get(path);
  if (cached) return cached;
  const r = spawnSync('kubectl', ['kustomize', join(deployDir, path)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`kubectl kustomize ${path} failed:\n${r.stderr}`);
  const objects = parseObjects(r.stdout);
  renders.set(path, objects);
  return objects;
}

/** A file of deploy/, read as objects. */
export function readObjects(path: string): K8sObject[] {
  return parseObjects(readFileSync(join(deployDir, path), 'utf8'));
}

/** The containers of a workload's pod template. */
export interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } } }[];
  securityContext?: Record<string, unknown>;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  livenessProbe?: { httpGet?: { path: string; port: string | number } };
  readinessProbe?: { httpGet?: { path: string; port: string | number } };
}

export interface PodSpec {
  containers: Container[];
  securityContext?: Record<string, unknown>;
  terminationGracePeriodSeconds?: number;
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
}

export const isWorkload = (o: K8sObject) => o.kind === 'Deployment' || o.kind === 'StatefulSet';

export function podSpec(o: K8sObject): PodSpec {
  return (o as unknown as { spec: { template: { spec: PodSpec } } }).spec.template.spec;
}

/** The workload of a component (bot, worker, redis) in rendered objects. */
export function workloadOf(objects: readonly K8sObject[], component: string): K8sObject | undefined {
  return objects.find((o) => isWorkload(o) && o.metadata.labels?.['app.kubernetes.io/component'] === component);
}

/** The text of the platform-medic.yaml a ConfigMap carries. */
export function configFileOf(objects: readonly K8sObject[]): string | undefined {
  const cm = objects.find((o) => o.kind === 'ConfigMap' && (o as unknown as { data?: Record<string, string> }).data?.['platform-medic.yaml'] !== undefined);
  return (cm as unknown as { data: Record<string, string> } | undefined)?.data['platform-medic.yaml'];
}
