import { catalogue } from '../src/catalogue/index.js';
import { ClusterGateway } from '../src/cluster/gateway.js';
import { faultEntries, localDatabase, startSimulatedCluster } from '../src/cluster/sim/index.js';
import { scan, type DoctorReport, type Finding } from '../src/doctor/index.js';
import { readsOf } from '../src/doctor/detectors/registry.js';
import { describeRead } from '../src/doctor/verify.js';
import { defaultPlatformNames } from '../src/platform-names.js';

/**
 * `npx tsx bench/doctor-table.ts`: for every catalogue entry, what its detector reads and what it says on
 * the healthy simulated cluster and on the entry's own broken state (markers hidden: real signals only).
 * Prints a Markdown table; the matrix test (test/doctor/matrix.test.ts) asserts the same states, and that
 * the remedy clears them.
 */
const brokenIds = new Set(faultEntries.map((e) => e.entryId));

async function doctorOn(broken?: string): Promise<DoctorReport> {
  const database = broken === 'database-drop-blocked' ? { database: localDatabase } : {};
  const sim = await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30, hideMarkers: true, platformVersion: broken === 'admin-password-reset-legacy' ? 'v0.6.4' : 'v0.6.29', ...database });
  try {
    await sim.settle();
    if (broken) {
      await sim.break(broken);
      await sim.settle();
    }
    return await scan(new ClusterGateway(sim.kubeConfig(), { callTimeoutMs: 5_000 }), { ...sim.names, ...sim.addresses }, catalogue);
  } finally {
    await sim.close();
  }
}

const cell = (f: Finding | undefined): string => {
  if (!f) return '?';
  if (f.state === 'present') return `present: ${f.evidence[0] ? `\`${f.evidence[0].object}\` ${f.evidence[0].detail}` : ''}`.replace(/\|/g, '\\|').slice(0, 160);
  if (f.state === 'unknown') return `unknown (${f.reason}): ${f.message ?? ''}`.slice(0, 120);
  return f.state;
};

const healthy = await doctorOn();
const rows: string[] = ['| entry | guide | detector | reads | healthy | own broken state | others present when broken |', '|---|---|---|---|---|---|---|'];
for (const e of catalogue) {
  const reads = e.detector ? [...new Set(readsOf(e.detector).map((r) => describeRead(r, defaultPlatformNames)))].join('; ') : '—';
  const h = healthy.findings.find((f) => f.id === e.id);
  let broken = 'no broken state';
  let others = '';
  if (brokenIds.has(e.id)) {
    const report = await doctorOn(e.id);
    broken = cell(report.findings.find((f) => f.id === e.id));
    others = report.findings.filter((f) => f.state === 'present' && f.id !== e.id).map((f) => f.id).join(', ') || 'none';
  }
  const kind = e.detector?.kind ?? '—';
  const checkInstead = h?.state === 'not-observable' ? ` (${(h.message ?? '').slice(0, 90)})` : '';
  rows.push(`| ${e.id} | ${e.ref} | ${kind} | ${reads || 'nothing'} | ${cell(h)}${checkInstead} | ${broken} | ${others} |`);
}
console.log(rows.join('\n'));
