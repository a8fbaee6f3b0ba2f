import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newSealingKey, seal as sealWith } from '../../../src/jobs/sealing.js';
import { harness, linesOf, refs } from './support.js';

const ns = 'devtroncd';
const decode = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');
const secretData = (sim: Awaited<ReturnType<typeof harness>>['sim'], name: string): Record<string, string> => sim.get(refs.secrets, ns, name).data;

describe('admin-password-reset (section 5.2, v0.6.9 and later)', () => {
  it('backs up the secret, removes the keys (names only on the card), restarts dex, and seals the new password', async () => {
    const { sim, plan, run, ctx } = await harness();
    await sim.break('admin-password-reset');
    const oldPassword = decode(secretData(sim, 'devtron-secret')['ADMIN_PASSWORD']!);

    const p = await plan('admin-password-reset');
    expect(p.blocked).toBeUndefined();
    expect(p.steps[0]!.lines).toEqual(['platform version `v0.6.29` (LTAG of installer `installer-devtron`); this remedy needs v0.6.9 or later: ✓']);
    expect(p.steps[1]!.lines).toEqual([
      'back up Secret `devtroncd/devtron-secret` (keys `ACD_PASSWORD`, `ADMIN_PASSWORD`, `GRAFANA_PASSWORD`, `PG_PASSWORD`, `admin.password`, `admin.passwordMtime`) as `devtron-secret-backup-<time of the run>`, labelled `platform-medic.dev/backup-of=devtron-secret`',
      'remove from Secret `devtroncd/devtron-secret`: `ADMIN_PASSWORD`, `admin.password`, `admin.passwordMtime`',
    ]);
    expect(p.steps[3]!.lines).toEqual(['read key `ADMIN_PASSWORD` of Secret `devtroncd/devtron-secret` (platform v0.6.29), decode it and show it only to you']);

    const key = newSealingKey();
    const { outcome, progress } = await run(p, { ...ctx, seal: (plain) => sealWith(key.publicKey, plain) });
    expect(outcome.status).toBe('completed');
    const revealed = progress.find((x) => x.index === 3 && x.status === 'done');
    expect(revealed?.sealed).toBeDefined();
    const newPassword = key.open(revealed!.sealed!);
    const stored = decode(secretData(sim, 'devtron-secret')['ADMIN_PASSWORD']!);
    expect(newPassword).toBe(stored);
    expect(newPassword).not.toBe(oldPassword);
    // Neither password appears in anything a plan, the thread or job data carries.
    const everything = JSON.stringify([p, progress, outcome]);
    for (const secret of [oldPassword, newPassword, secretData(sim, 'devtron-secret')['ADMIN_PASSWORD']]) expect(everything).not.toContain(secret);

    const backups = sim.list(refs.secrets, ns, 'platform-medic.dev/backup-of=devtron-secret');
    expect(backups).toHaveLength(1);
    expect(backups[0].metadata.name).toMatch(/^devtron-secret-backup-\d{14}$/);
    expect(decode(backups[0].data['ADMIN_PASSWORD'])).toBe(oldPassword);
    expect(sim.symptoms()).toEqual([]);
  });

  it('is blocked on a v0.6.4 install, pointing at the legacy reset', async () => {
    const { sim, plan } = await harness({ platformVersion: 'v0.6.4' });
    await sim.break('admin-password-reset');
    const p = await plan('admin-password-reset');
    expect(p.blocked).toBe('This remedy needs v0.6.9 or later; this cluster runs v0.6.4 — older versions use the other reset (admin-password-reset-legacy).');
  });

  it('stops, touching nothing, when the secret changed after the plan', async () => {
    const { sim, plan, run, ctx } = await harness();
    await sim.break('admin-password-reset');
    const p = await plan('admin-password-reset');
    const { CoreV1Api, PatchStrategy, setHeaderOptions } = await import('@kubernetes/client-node');
    sim.setPolicy(undefined);
    await sim.kubeConfig().makeApiClient(CoreV1Api).patchNamespacedSecret(
      { namespace: ns, name: 'devtron-secret', body: { metadata: { labels: { touched: 'yes' } } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    const { outcome } = await run(p, { ...ctx, seal: () => 'x' });
    expect(outcome).toMatchObject({ status: 'changed', details: expect.arrayContaining([expect.stringContaining('step 2: Secret devtroncd/devtron-secret')]) });
    expect(Object.keys(secretData(sim, 'devtron-secret'))).toContain('ADMIN_PASSWORD');
    expect(sim.list(refs.secrets, ns, 'platform-medic.dev/backup-of')).toEqual([]);
  });
});

describe('admin-password-reset-legacy (section 5.3, before v0.6.9)', () => {
  it('removes admin.password from the GitOps secret, restarts its server, and reveals ACD_PASSWORD', async () => {
    const { sim, plan, run, ctx } = await harness({ platformVersion: 'v0.6.4' });
    await sim.break('admin-password-reset-legacy');
    const p = await plan('admin-password-reset-legacy');
    expect(p.blocked).toBeUndefined();
    expect(p.steps[1]!.lines[1]).toBe('remove from Secret `devtroncd/argocd-secret`: `admin.password`, `admin.passwordMtime`');
    expect(p.steps[3]!.lines[0]).toContain('read key `ACD_PASSWORD`');
    const key = newSealingKey();
    const { outcome, progress } = await run(p, { ...ctx, seal: (plain) => sealWith(key.publicKey, plain) });
    expect(outcome.status).toBe('completed');
    const sealed = progress.find((x) => x.index === 3 && x.status === 'done')?.sealed;
    expect(key.open(sealed!)).toBe(decode(secretData(sim, 'devtron-secret')['ACD_PASSWORD']!));
    expect(sim.symptoms()).toEqual([]);
  });

  it('is blocked on v0.6.9 and later', async () => {
    const { plan } = await harness();
    const p = await plan('admin-password-reset-legacy');
    expect(p.blocked).toBe('This remedy needs a version below v0.6.9; this cluster runs v0.6.29 — v0.6.9 and later use admin-password-reset.');
  });
});

describe('a version gate says why the version is needed, once', () => {
  // Found by a newcomer's try: "needs v0.7.1 or later; this cluster runs v0.6.29 — this remedy needs platform 0.7.1 or later".
  it('chart-repo-tls-handshake on v0.6.29: what it needs, what runs, and why', async () => {
    const { plan } = await harness();
    const p = await plan('chart-repo-tls-handshake');
    expect(p.blocked).toBe(
      "This remedy needs v0.7.1 or later; this cluster runs v0.6.29 — the chart repository's insecure-connection setting this remedy changes comes with 0.7.1 (section 9): upgrade the platform first.",
    );
  });
});

describe('admin-password (section 5.1): reveal', () => {
  it('fails without a sealing key and reads nothing', async () => {
    const { sim, plan, run } = await harness();
    const p = await plan('admin-password');
    expect(linesOf(p)).not.toContain(decode(secretData(sim, 'devtron-secret')['ADMIN_PASSWORD']!));
    const getsBefore = sim.requests().filter((r) => r.method === 'GET' && r.path.endsWith('/secrets/devtron-secret')).length;
    const { outcome, progress } = await run(p);
    expect(outcome).toMatchObject({ status: 'failed', message: 'Cannot show the password: this run has no key to seal it to, so it was not read. Ask again with /platform password.' });
    expect(progress.some((x) => x.sealed !== undefined)).toBe(false);
    // Only the drift check's plan read the secret (for its key names); the run did not.
    expect(sim.requests().filter((r) => r.method === 'GET' && r.path.endsWith('/secrets/devtron-secret')).length).toBe(getsBefore + 1);
  });
});

describe('gitops-certificate-expired (entry 22)', () => {
  it('removes the expired certificate, and the restarted GitOps server makes a valid one', async () => {
    const { sim, plan, run } = await harness();
    await sim.break('gitops-certificate-expired');
    expect(sim.symptoms()).toEqual(['gitops-certificate-expired']);
    const expired = new X509Certificate(decode(secretData(sim, 'argocd-secret')['tls.crt']!));
    expect(Date.parse(expired.validTo)).toBeLessThan(Date.now());

    const p = await plan('gitops-certificate-expired');
    expect(p.steps[0]!.lines[1]).toBe('remove from Secret `devtroncd/argocd-secret`: `tls.crt`, `tls.key`');
    expect(linesOf(p)).not.toContain(secretData(sim, 'argocd-secret')['tls.key']!);
    const { outcome } = await run(p);
    expect(outcome.status).toBe('completed');
    await sim.settle();
    const fresh = new X509Certificate(decode(secretData(sim, 'argocd-secret')['tls.crt']!));
    expect(Date.parse(fresh.validTo)).toBeGreaterThan(Date.now());
    expect(fresh.serialNumber).not.toBe(expired.serialNumber);
    expect(sim.list(refs.secrets, ns, 'platform-medic.dev/backup-of=argocd-secret')).toHaveLength(1);
    expect(sim.symptoms()).toEqual([]);
  });
});
