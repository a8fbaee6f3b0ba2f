import { describe, expect, it } from 'vitest';
import { harness, linesOf, refs } from './support.js';

const ns = 'devtroncd';

describe('upgrade-cannot-patch-database (entry 18): label the platform namespace for the chart manager', () => {
  it('lists exactly the resources lacking the labels, patches exactly those, and the chart manager can adopt them', async () => {
    const { sim, plan, run } = await harness();
    await sim.break('upgrade-cannot-patch-database');
    expect(sim.symptoms()).toEqual(['upgrade-cannot-patch-database']);
    const p = await plan('upgrade-cannot-patch-database');
    const lines = linesOf(p);
    expect(p.steps[0]!.lines[0]).toBe('add label `app.kubernetes.io/managed-by=Helm` and annotations `meta.helm.sh/release-name=devtron`, `meta.helm.sh/release-namespace=devtroncd` to:');
    expect(lines).toContain('StatefulSet (4): `devtron-nats`, `devtron-stan`, `git-sensor`, `postgresql-postgresql`');
    expect(lines).toContain('Secret (2): `argocd-secret`, `devtron-secret`');
    expect(lines).toContain('Ingress (1): `devtron-ingress`');
    // ReplicaSets and pods belong to their controllers: never listed.
    expect(p.steps[0]!.targets.every((t) => ['Deployment', 'StatefulSet', 'Service', 'ConfigMap', 'Secret', 'ServiceAccount', 'Ingress'].includes(t.kind))).toBe(true);

    const { outcome } = await run(p);
    expect(outcome.status).toBe('completed');
    const db = sim.get(refs.statefulSets, ns, 'postgresql-postgresql');
    expect(db.metadata.labels['app.kubernetes.io/managed-by']).toBe('Helm');
    expect(db.metadata.annotations).toMatchObject({ 'meta.helm.sh/release-name': 'devtron', 'meta.helm.sh/release-namespace': 'devtroncd' });
    expect(sim.symptoms()).toEqual([]);

    const again = await plan('upgrade-cannot-patch-database');
    expect(again.steps[0]!.lines[0]).toBe("every chart resource of `devtroncd` already carries the chart manager's label and annotations");
  });

  it('leaves an object of another release alone, with a warning', async () => {
    const { sim, plan, ctx } = await harness();
    await sim.break('upgrade-cannot-patch-database');
    const cm = (await ctx.gateway.metadata.list('configmaps', ns)).find((c) => c.name === 'devtron-cm')!;
    await ctx.gateway.metadata.patch('configmaps', ns, 'devtron-cm', { annotations: { 'meta.helm.sh/release-name': 'other' } }, cm.resourceVersion);
    const p = await plan('upgrade-cannot-patch-database');
    expect(p.warnings).toContain('ConfigMap devtroncd/devtron-cm belongs to release other; left alone.');
    expect(p.warnings.join('\n')).toContain('Other Secrets of devtroncd are not read');
    expect(p.steps[0]!.targets.map((t) => t.name)).not.toContain('devtron-cm');
  });
});
