import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const deploy = join(import.meta.dirname, '..', '..', 'deploy');
const hasKubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;

/** Renders an overlay of an admin's own, built on the example with the out-of-band component. */
function renderOwn(example: string, component: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'medic-overlay-')), 'own');
  mkdirSync(dir);
  const rel = (p: string) => relative(dir, join(deploy, p));
  writeFileSync(join(dir, 'kustomization.yaml'), `resources: [${rel(example)}]\ncomponents: [${rel(component)}]\n`);
  const r = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout;
}

describe('Secrets created out of band', () => {
  it.skipIf(!hasKubectl)('are never overwritten: the component leaves every Secret template out of the control build', () => {
    const out = renderOwn('overlays/example/control', 'components/secrets-out-of-band/control');
    expect(out).not.toMatch(/^kind: Secret$/m);
    expect(out).toMatch(/^kind: Deployment$/m);
    expect(out).toContain('name: platform-medic-slack');
  });

  it.skipIf(!hasKubectl)("and out of each worker cluster's build", () => {
    const out = renderOwn('overlays/example/prod-eu', 'components/secrets-out-of-band/worker');
    expect(out).not.toMatch(/^kind: Secret$/m);
    expect(out).toMatch(/^kind: Role$/m);
  });
});
