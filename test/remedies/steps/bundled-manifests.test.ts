import { CoreV1Api } from '@kubernetes/client-node';
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generatedPolicy, harness, linesOf, manifestServer, refs } from './support.js';

/**
 * Entries 1 and 2 plan and run with the manifests bundled with platform-medic (manifests/ at the
 * package's root, the upstream files of each release, pinned by sha256 in manifests/index.json),
 * chosen by the installer's LTAG. No test here may reach beyond loopback: the worker's NetworkPolicy
 * allows no public HTTPS, and the terminal demo runs offline.
 */

const bundle = fileURLToPath(new URL('../../../manifests/', import.meta.url));
const index = JSON.parse(await readFile(join(bundle, 'index.json'), 'utf8')) as {
  versions: Record<string, { migrator: string; rollout: string }>;
  files: Record<string, { sha256: string; source: string; tag: string; commit: string }>;
};
const trimmedMigrator = fileURLToPath(new URL('./manifests/manifests/yamls/migrator.yaml', import.meta.url));

/** Every address fetch() was called with during a test; the Kubernetes client reaches the simulator on loopback. */
let fetched: string[] = [];
const realFetch = globalThis.fetch;
beforeEach(() => {
  fetched = [];
  globalThis.fetch = (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    fetched.push(input instanceof Request ? input.url : String(input));
    return realFetch(input, init);
  };
});
afterEach(() => {
  globalThis.fetch = realFetch;
});
const offLoopback = () => fetched.filter((u) => !/^https?:\/\/(127\.0\.0\.1|localhost)[:/]/.test(u));

describe('the manifests bundled with platform-medic', () => {
  it('pin each file by sha256 and record its upstream address and commit', async () => {
    for (const [file, pin] of Object.entries(index.files)) {
      const text = await readFile(join(bundle, file));
      expect(createHash('sha256').update(text).digest('hex'), file).toBe(pin.sha256);
      expect(pin.source).toBe(`https://raw.githubusercontent.com/devtron-labs/devtron/${pin.commit}/manifests/yamls/${file.split('/')[1]}`);
    }
    expect(Object.keys(index.versions)).toEqual(expect.arrayContaining(['v0.6.0', 'v0.6.8', 'v0.6.29', 'v0.7.1', 'v2.2.0']));
  });

  it('entry 1 plans and runs offline from the bundled migrator of the installed version, naming its source and digest', async () => {
    const { sim, ctx, plan, run } = await harness();
    expect(ctx.names.manifestBaseUrl).toBeUndefined();
    await sim.break('install-jobs-failed');
    const pin = index.files[index.versions['v0.6.29']!.migrator]!;

    const p = await plan('install-jobs-failed');
    expect(p.blocked).toBeUndefined();
    const lines = linesOf(p);
    expect(lines).toContain(`manifest \`migrator.yaml\` for platform \`v0.6.29\`: bundled with platform-medic (v0.6.29/migrator.yaml), from ${pin.source} (v0.6.29, commit ${pin.commit.slice(0, 12)}); sha256 \`${pin.sha256}\``);
    expect(lines).toContain('leave out Secret `postgresql-migrator` (the guide removes it from the manifest)');
    expect(lines).toContain('Job `devtroncd/postgresql-migrate-devtron`: failed: create again once the step before has deleted it');

    const { outcome } = await run(p);
    expect(outcome).toEqual({ status: 'completed', message: 'All steps done.' });
    await sim.settle();
    expect(sim.get(refs.jobs, 'devtroncd', 'postgresql-migrate-devtron').status.succeeded).toBe(1);
    expect(sim.symptoms()).toEqual([]);
    expect(offLoopback()).toEqual([]);
  });

  it('entry 2 plans and runs offline from the bundled rollout manifest; CRDs defined twice are applied once, the last definition', async () => {
    const { sim, plan, run } = await harness();
    await sim.break('rollout-crds-outdated');
    const p = await plan('rollout-crds-outdated');
    expect(p.blocked).toBeUndefined();
    const lines = linesOf(p);
    expect(lines).toContain(`sha256 \`${index.files['v0.6.2/rollout.yaml']!.sha256}\``);
    expect(lines).toContain('bundled with platform-medic (v0.6.2/rollout.yaml)');
    expect(lines).toContain('CustomResourceDefinition `analysisruns.argoproj.io` is defined 2 times in the manifest: the last definition is applied, as `kubectl apply -f` would leave it');
    expect(lines).toContain('CustomResourceDefinition `rollouts.argoproj.io`: exists: update to the manifest');
    expect(p.warnings).toEqual([expect.stringContaining('Deployment argo-rollouts (apps/v1)')]);

    const { outcome } = await run(p);
    expect(outcome.status).toBe('completed');
    expect(sim.symptoms()).toEqual([]);
    expect(offLoopback()).toEqual([]);
  });

  it('refuses to plan from a bundled file that does not match its pinned digest', async () => {
    const copy = await mkdtemp(join(tmpdir(), 'medic-bundle-'));
    try {
      await cp(join(bundle, 'index.json'), join(copy, 'index.json'));
      await cp(join(bundle, 'v0.6.29'), join(copy, 'v0.6.29'), { recursive: true });
      const original = await readFile(join(copy, 'v0.6.29/migrator.yaml'), 'utf8');
      await writeFile(join(copy, 'v0.6.29/migrator.yaml'), original.replace('quay.io/devtron/migrator', 'evil.example.com/migrator'));
      const { sim, plan } = await harness({ manifestBundle: copy });
      await sim.break('install-jobs-failed');
      const p = await plan('install-jobs-failed');
      expect(p.blocked).toMatch(/^Cannot plan the manifest: the bundled manifest v0\.6\.29\/migrator\.yaml does not match its pinned sha256 \(af05cdb51e06…, the file has [0-9a-f]{12}…\); it was changed after release, so it is not applied\.$/);
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });

  it('says which versions it has when the installed one is not bundled', async () => {
    const { sim, plan } = await harness({ platformVersion: 'v0.5.2' });
    await sim.break('rollout-crds-outdated');
    const p = await plan('rollout-crds-outdated');
    expect(p.blocked).toMatch(/^Cannot plan the manifest: platform-medic carries no rollout manifest for platform v0\.5\.2; it has them for v0\.6\.0, v0\.6\.1, v0\.6\.2, .*, v0\.7\.1, .*, v2\.2\.0\. Give it the file in a ConfigMap or through a mirror \(manifestBaseUrl\), as docs\/operations\.md says\.$/);
    expect(offLoopback()).toEqual([]);
  });
});

describe('an admin\'s own manifest', () => {
  it('is taken from the ConfigMap named by manifestConfigMap when it exists, read by name under the generated RBAC', async () => {
    const { sim, ctx, plan, run } = await harness({ platformVersion: 'v0.5.2' });
    await sim.break('install-jobs-failed');
    const text = await readFile(trimmedMigrator, 'utf8');
    sim.setPolicy(undefined);
    await sim.kubeConfig().makeApiClient(CoreV1Api).createNamespacedConfigMap({ namespace: 'devtroncd', body: { metadata: { name: 'platform-medic-manifests' }, data: { 'migrator.yaml': text } } });
    sim.setPolicy(generatedPolicy(ctx.names));

    const p = await plan('install-jobs-failed');
    expect(p.blocked).toBeUndefined();
    const sha = createHash('sha256').update(text).digest('hex');
    expect(linesOf(p)).toContain(`manifest \`migrator.yaml\`: ConfigMap devtroncd/platform-medic-manifests key migrator.yaml (the admin's override); sha256 \`${sha}\``);
    const { outcome } = await run(p);
    expect(outcome.status).toBe('completed');
    await sim.settle();
    expect(sim.symptoms()).toEqual([]);
  });

  it('is fetched from a mirror when manifestBaseUrl is set, {version} standing for the installed version', async () => {
    const mirror = await manifestServer();
    mirror.override('devtron/v0.6.29/manifests/yamls/migrator.yaml', await readFile(trimmedMigrator, 'utf8'));
    const { sim, plan } = await harness({ manifestBaseUrl: `${mirror.url}devtron/{version}/` });
    await sim.break('install-jobs-failed');
    const p = await plan('install-jobs-failed');
    expect(p.blocked).toBeUndefined();
    expect(linesOf(p)).toContain(`manifest \`migrator.yaml\` for platform \`v0.6.29\`: mirror ${mirror.url}devtron/v0.6.29/manifests/yamls/migrator.yaml (manifestBaseUrl)`);
    // The mirror's file is the trimmed fixture, not the release's: the plan says so.
    expect(linesOf(p)).toContain(`(manifestBaseUrl); not the upstream file of v0.6.29 (sha256 ${index.files['v0.6.29/migrator.yaml']!.sha256.slice(0, 12)}…); sha256`);
  });
});
