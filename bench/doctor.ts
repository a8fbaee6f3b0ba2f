import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { KubeConfig } from '@kubernetes/client-node';
import { catalogue } from '../src/catalogue/index.js';
import { ClusterGateway } from '../src/cluster/gateway.js';
import type { RequestRecord } from '../src/cluster/sim/index.js';
import { scan, type DoctorReport } from '../src/doctor/index.js';
import { summarise, type CallSummary } from './doctor/calls.js';
import type { SimInfo } from './doctor/protocol.js';
import { writeSection } from './results.js';
import { forkChild, type BenchChild } from './slack/ipc.js';
import { percentiles } from './slack/stats.js';

/**
 * `npm run bench -- doctor`: the full doctor scan (the worker's `scan`, through ClusterGateway and the
 * Kubernetes client over HTTPS) on a simulated cluster grown to 100, 500, 1,000 and 2,000 pods (a
 * quarter as many jobs, one namespace per 40 pods: 50 at the top, 30 days of events), each cluster in
 * a process of its own. For each size: scan time, the API calls by kind, and the worker's memory.
 * Bars (issue 12 item 12): at 2,000 pods under 2 s, at most one list per resource kind.
 */

const sizes = [100, 500, 1000, 2000].map((pods) => ({ pods, jobs: pods / 4, namespaces: Math.max(1, Math.round(pods / 40)) }));
const warmups = 2;
const runs = 7;
const barMs = 2000;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const highWaterKb = (): number => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN);
/** Resets the kernel's peak-RSS mark of this process (Linux: `5` to clear_refs), so VmHWM is the peak from now on. */
const resetHighWater = (): void => writeFileSync('/proc/self/clear_refs', '5');

interface Sample {
  readonly ms: number;
  readonly cpuMs: number;
  readonly simCpuMs: number;
  /** Heap used at the end of the scan minus after a full GC before it (garbage included). */
  readonly heapDelta: number;
  /** Highest heap used seen during the scan (sampled every 5 ms), minus the GC'd start. */
  readonly heapPeakDelta: number;
  readonly heapBase: number;
  /** Resident set just before the scan (after the GC), and the kernel's peak during it. */
  readonly rssBefore: number;
  readonly peakRssKb: number;
  readonly calls: CallSummary;
  readonly report: DoctorReport;
}

async function once(gateway: ClusterGateway, info: SimInfo, sim: BenchChild<SimInfo>): Promise<Sample> {
  const from = await sim.call<number>('requestCount');
  const simCpu0 = await sim.call<NodeJS.CpuUsage>('cpu');
  gc();
  gc();
  resetHighWater();
  const rssBefore = process.memoryUsage.rss();
  const heapBase = getHeapStatistics().used_heap_size;
  let heapPeak = heapBase;
  const sampler = setInterval(() => (heapPeak = Math.max(heapPeak, getHeapStatistics().used_heap_size)), 5);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const report = await scan(gateway, info.names, catalogue);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sampler);
  const heapEnd = getHeapStatistics().used_heap_size;
  const peakRssKb = highWaterKb();
  const simCpu1 = await sim.call<NodeJS.CpuUsage>('cpu');
  const calls = summarise(await sim.call<RequestRecord[]>('requestsSince', from));
  return {
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    simCpuMs: (simCpu1.user - simCpu0.user + simCpu1.system - simCpu0.system) / 1000,
    heapDelta: heapEnd - heapBase,
    heapPeakDelta: Math.max(heapPeak, heapEnd) - heapBase,
    heapBase,
    rssBefore,
    peakRssKb,
    calls,
    report,
  };
}

interface SizeResult {
  readonly size: (typeof sizes)[number];
  readonly info: SimInfo;
  readonly samples: readonly Sample[];
}

/** Starts a cluster of each size (one after another: seeding is CPU-bound), then scans them in turns, so load drift hits every size alike. */
async function measureAll(dir: string): Promise<SizeResult[]> {
  const sims: BenchChild<SimInfo>[] = [];
  try {
    for (const size of sizes) {
      sims.push(
        await forkChild<SimInfo>(`cluster-${size.pods}`, join(import.meta.dirname, 'doctor', 'sim-process.ts'), {
          env: { ...process.env },
          args: [JSON.stringify(size)],
          logPath: join(dir, `cluster-${size.pods}.log`),
          readyTimeoutMs: 300_000,
        }),
      );
    }
    const gateways = sims.map((sim) => {
      const kc = new KubeConfig();
      kc.loadFromString(sim.info.kubeconfig);
      return new ClusterGateway(kc);
    });
    for (let i = 0; i < warmups; i++) for (const [k, sim] of sims.entries()) await once(gateways[k]!, sim.info, sim);
    const samples: Sample[][] = sims.map(() => []);
    for (let i = 0; i < runs; i++) for (const [k, sim] of sims.entries()) samples[k]!.push(await once(gateways[k]!, sim.info, sim));
    return sizes.map((size, k) => ({ size, info: sims[k]!.info, samples: samples[k]! }));
  } finally {
    await Promise.all(sims.map((sim) => sim.stop()));
  }
}

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
const ms = (v: number) => (v >= 100 ? `${v.toFixed(0)} ms` : `${v.toFixed(1)} ms`);
const p50 = (xs: readonly number[]) => percentiles(xs).p50;

function callsText(c: CallSummary): string {
  const lists = [...c.lists].map(([resource, scopes]) => `${resource}${scopes.length > 1 ? ` ×${scopes.length}` : ''} (${scopes.join(', ')})`);
  return `${c.total} calls: ${c.lists.size} lists (${lists.join('; ')}); ${c.gets.length} named gets (${c.gets.join('; ')}); ${c.logs.length} log tails (${[...new Set(c.logs.map((l) => `tailLines=${l.tailLines}, limitBytes=${l.limitBytes}`))].join('; ')}: ${c.logs.map((l) => l.pod).join(', ')})`;
}

export async function recordDoctorBench(results: string): Promise<boolean> {
  const loadStart = loadavg();
  const dir = await mkdtemp(join(tmpdir(), 'bench-doctor-'));
  const measured = await measureAll(dir);
  const loadEnd = loadavg();

  const top = measured[measured.length - 1]!;
  const bottom = measured[0]!;
  const topTimes = percentiles(top.samples.map((s) => s.ms));
  const allCalls = measured.flatMap((m) => m.samples.map((s) => s.calls));
  const timeOk = topTimes.max < barMs;
  const listsOk = allCalls.every((c) => c.onePerKind);
  const logsOk = allCalls.every((c) => c.logsBounded);
  const failed = allCalls.reduce((n, c) => n + c.failed, 0);
  const present = [...new Set(measured.flatMap((m) => m.samples.flatMap((s) => s.report.findings.filter((f) => f.state === 'present').map((f) => f.id))))];
  const growth = p50(top.samples.map((s) => s.ms)) / p50(bottom.samples.map((s) => s.ms));

  const rows = measured.map(({ size, info, samples }) => {
    const t = percentiles(samples.map((s) => s.ms));
    const c = samples[0]!.calls;
    return `| ${size.pods} (${info.cluster.pods}) | ${info.cluster.jobs} / ${info.cluster.deployments} / ${info.cluster.namespaces} | ${info.cluster.events} (${info.cluster.warnings} warnings) | ${ms(t.p50)} / ${ms(t.max)} | ${ms(p50(samples.map((s) => s.cpuMs)))} / ${ms(p50(samples.map((s) => s.simCpuMs)))} | ${c.lists.size} / ${c.gets.length} / ${c.logs.length}${samples.every((s) => s.calls.onePerKind) ? '' : ' **(a kind listed twice)**'} | ${mb(info.listBytes.pods)} / ${mb(info.listBytes.warnings)} | ${mb(p50(samples.map((s) => s.heapDelta)))} / ${mb(Math.max(...samples.map((s) => s.heapPeakDelta)))} | ${mb(p50(samples.map((s) => s.rssBefore)))} / ${(Math.max(...samples.map((s) => s.peakRssKb)) / 1024).toFixed(0)} MB |`;
  });
  const perPod = measured.map((m) => `${m.size.pods}: ${(p50(m.samples.map((s) => s.ms)) / m.info.cluster.pods).toFixed(3)} ms`).join(', ');
  const body = `Run ${new Date().toISOString().slice(0, 10)} on ${availableParallelism()} cores (nproc), Node ${process.version}; load average (1, 5, 15 min) ${loadStart.map((l) => l.toFixed(2)).join(', ')} at the start, ${loadEnd.map((l) => l.toFixed(2)).join(', ')} at the end (\`uptime\`; the machine is shared, and other work shows up in the max figures).
Produced by \`npm run bench -- doctor\` (bench/doctor.ts). ${failed > 0 ? `**${failed} API calls failed.** ` : ''}**Bars: ${timeOk && listsOk && logsOk ? 'all pass' : 'failing: ' + [!timeOk && 'time', !listsOk && 'one list per kind', !logsOk && 'bounded log tails'].filter(Boolean).join(', ')}.**

The worker's full scan (\`scan\` from src/doctor, every catalogue entry, through ClusterGateway and the Kubernetes client over
HTTPS, with the worker's generated RBAC enforced) on a simulated cluster grown with its \`applications\` option: the standard
install plus N pods, N/4 Jobs (their pods counted in N) and one namespace per 40 pods (50 at the top), with
Deployments in the states a busy cluster shows (a few crash-looping, failing readiness or waiting on a missing image tag), Jobs
mostly Complete, some Failed, and ${top.info.cluster.oldestEventDays} days of events (10 per pod). Each cluster runs in a process of its own; the
figures below are the worker's process alone, except the simulated API server's CPU. ${warmups} warm-up scans of each, then ${runs} rounds
of one measured scan of each size in turn (so a change in the machine's load falls on every size alike).

| pods added (in the cluster) | jobs / deployments / namespaces | events | scan p50 / max | worker CPU / API server CPU (p50) | lists / named gets / log tails per scan | pods list / warnings list (bytes) | heap used Δ p50 / peak Δ max | RSS before / peak during (max) |
|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

| bar | measured | verdict |
|---|---|---|
| a full scan at 2,000 pods under 2 s (every run) | p50 ${ms(topTimes.p50)}, max ${ms(topTimes.max)} | ${timeOk ? 'PASS' : '**FAIL**'} |
| at most one list call per resource kind (every scan, every size) | ${listsOk ? 'one each' : 'a kind listed more than once'} | ${listsOk ? 'PASS' : '**FAIL**'} |
| besides lists, only named gets and bounded log tails | ${top.samples[0]!.calls.gets.length} named gets, ${top.samples[0]!.calls.logs.length} log tails, each with tailLines and limitBytes | ${logsOk ? 'PASS' : '**FAIL**'} |

**Growth, 100 → 2,000 pods:** scan p50 ×${growth.toFixed(2)} for ×${(top.info.cluster.pods / bottom.info.cluster.pods).toFixed(1)} the pods (×${(top.info.cluster.events / bottom.info.cluster.events).toFixed(1)} the events); p50 per pod in the cluster: ${perPod}.
Calls of one scan at 2,000 pods: ${callsText(top.samples[0]!.calls)}.
Entries present on the grown clusters: ${present.length === 0 ? 'none (the applications\u2019 own troubles are not the platform\u2019s symptoms)' : present.join(', ')}.
Seeding the 2,000-pod cluster took ${ms(top.info.seedMs)} (objects into the store) and ${ms(top.info.settleMs)} more for its controllers to settle.
Memory: heap figures are V8's used heap in the worker's process, from just after a full GC before each scan (base ${mb(p50(top.samples.map((s) => s.heapBase)))} at 2,000 pods);
RSS before is the process's resident set after that GC (the bench process: loader, catalogue, client); the peak is the kernel's high-water
mark (VmHWM) of the process, reset before each scan, so the scan's own share is the difference.`;
  writeSection(results, 'Doctor', body);
  console.log(body);
  return timeOk && listsOk && logsOk && failed === 0;
}
