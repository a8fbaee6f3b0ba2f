import { z } from 'zod';
import { defineStep } from './kind.js';
import { stepBase } from './step.js';
import { code } from './support.js';
import { compareVersions, parseVersion, platformVersion, showVersion } from './version.js';

/** Read the platform version from the installer object; gate what follows (sections 5 and 9). */
const checkVersionStep = z.strictObject({
  ...stepBase,
  kind: z.literal('checkVersion'),
  risk: z.literal('read-only'),
  atLeast: z.string().optional(),
  below: z.string().optional(),
  why: z.string(),
});
export type CheckVersionStep = z.infer<typeof checkVersionStep>;

/** What the gate asks for, in words: "v0.6.9 or later", "a version below v0.6.9". */
function wanted(step: CheckVersionStep): string {
  const parts: string[] = [];
  if (step.atLeast) parts.push(`${showVersion(step.atLeast)} or later`);
  if (step.below) parts.push(`a version below ${showVersion(step.below)}`);
  return parts.join(' and ');
}

/** The gate's verdict on a version; a message when it fails. */
export function versionGate(step: Pick<CheckVersionStep, 'atLeast' | 'below'>, parts: number[]): 'ok' | 'too-old' | 'too-new' {
  if (step.atLeast && compareVersions(parts, parseVersion(step.atLeast) ?? []) < 0) return 'too-old';
  if (step.below && compareVersions(parts, parseVersion(step.below) ?? []) >= 0) return 'too-new';
  return 'ok';
}

/**
 * Read-only: reads the platform version from the installer object and gates the stage on it (sections 5
 * and 9). A failed gate blocks the plan with what is needed, what runs, and where to go instead.
 */
export const checkVersion = defineStep({
  kind: 'checkVersion',
  step: checkVersionStep,
  data: z.object({ version: z.string() }),
  parameters: () => [],
  permissions: () => [{ apiGroup: 'installer.devtron.ai', resource: 'installers', verbs: ['get'], scope: 'platformNamespace', resourceNames: ['installerName'] }],
  async plan(ctx, step) {
    const found = await platformVersion(ctx);
    if ('problem' in found) return { lines: [step.does], targets: [], data: { version: '' }, blocked: `Cannot check the platform version: ${found.problem}.` };
    const verdict = versionGate(step, found.parts);
    const line = `platform version ${code(found.version)} (LTAG of installer ${code(ctx.names.installerName)}); this remedy needs ${wanted(step)}`;
    if (verdict === 'ok') return { lines: [`${line}: ✓`], targets: [], data: { version: found.version } };
    return { lines: [line], targets: [], data: { version: found.version }, blocked: `This remedy needs ${wanted(step)}; this cluster runs ${found.version} — ${step.why}.` };
  },
  async run(_ctx, planned) {
    return { status: 'done', message: `The platform runs ${planned.data.version}, as this remedy needs.` };
  },
});
