/**
 * Child process of the doctor benchmark: the worker's side, alone in its process so that its memory
 * is its own. It runs the worker's `scan` through a ClusterGateway built as the worker builds it, on
 * the parent's request, and measures each scan from the inside.
 * Argument: JSON `{ kubeconfig, names }`. Run with --expose-gc.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';
import { AppsV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { catalogue } from '../../src/catalogue/index.js';
import { ClusterGateway } from '../../src/cluster/gateway.js';
import { scan } from '../../src/doctor/index.js';
import type { PlatformNames } from '../../src/platform-names.js';
import { serveParent } from '../slack/child.mjs';
import type { Cost, ScanMeasure, WorkerMemory } from './protocol.js';

const { kubeconfig, names } = JSON.parse(process.argv[2] ?? '{}') as { kubeconfig: string; names: PlatformNames };
const exposed = (globalThis as { gc?: () => void }).gc;
if (!exposed) throw new Error('run with --expose-gc');
const gc: () => void = exposed;
const kc = new KubeConfig();
kc.loadFromString(kubeconfig);
const gateway = new ClusterGateway(kc);

const highWaterKb = (): number => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN);

async function measuredScan(): Promise<ScanMeasure> {
  gc();
  gc();
  // The kernel's peak-RSS mark, reset (Linux: `5` to clear_refs), so VmHWM is this scan's peak.
  writeFileSync('/proc/self/clear_refs', '5');
  const rssBefore = process.memoryUsage.rss();
  const heapBase = getHeapStatistics().used_heap_size;
  let heapPeak = heapBase;
  const sampler = setInterval(() => (heapPeak = Math.max(heapPeak, getHeapStatistics().used_heap_size)), 5);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const report = await scan(gateway, names, catalogue);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sampler);
  const heapEnd = getHeapStatistics().used_heap_size;
  return {
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    heapBase,
    heapDelta: heapEnd - heapBase,
    heapPeakDelta: Math.max(heapPeak, heapEnd) - heapBase,
    rssBefore,
    peakRss: highWaterKb() * 1024,
    present: report.findings.filter((f) => f.state === 'present').map((f) => f.id),
    unknown: report.findings.filter((f) => f.state === 'unknown' && f.reason !== 'no-detector').map((f) => `${f.id}: ${f.message ?? ''}`),
  };
}

/**
 * The fix to the gateway's parsing, measured in one run: the scan's three large lists (every pod, every
 * warning event, every deployment) read through the client's typed APIs, as the gateway read them
 * before, and as it reads them now (JSON through the same client), in turns.
 */
async function compareReads(rounds: number): Promise<{ typed: Cost; json: Cost }> {
  const core = kc.makeApiClient(CoreV1Api);
  const apps = kc.makeApiClient(AppsV1Api);
  const reads = {
    typed: async () => void (await Promise.all([core.listPodForAllNamespaces(), core.listEventForAllNamespaces({ fieldSelector: 'type=Warning' }), apps.listDeploymentForAllNamespaces()])),
    json: async () => void (await Promise.all([gateway.observe.pods(), gateway.observe.warnings(), gateway.observeObjects.deployments()])),
  };
  const measure = async (read: () => Promise<void>): Promise<Cost> => {
    gc();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await read();
    const cpu = process.cpuUsage(cpu0);
    return { ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000 };
  };
  await reads.typed();
  await reads.json();
  const costs = { typed: [] as Cost[], json: [] as Cost[] };
  for (let i = 0; i < rounds; i++) {
    for (const which of i % 2 === 0 ? (['typed', 'json'] as const) : (['json', 'typed'] as const)) costs[which].push(await measure(reads[which]));
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
  const summary = (cs: Cost[]): Cost => ({ ms: median(cs.map((c) => c.ms)), cpuMs: median(cs.map((c) => c.cpuMs)) });
  return { typed: summary(costs.typed), json: summary(costs.json) };
}

gc();
const ready: WorkerMemory = { rss: process.memoryUsage.rss(), heapUsed: getHeapStatistics().used_heap_size, peakRss: highWaterKb() * 1024 };
serveParent(
  {
    scan: () => measuredScan(),
    compareReads: (rounds) => compareReads(rounds as number),
    stop() {
      setImmediate(() => process.exit(0));
    },
  },
  ready,
);
