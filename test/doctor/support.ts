import { catalogue } from '../../src/catalogue/index.js';
import { ClusterGateway } from '../../src/cluster/gateway.js';
import { startSimulatedCluster, type SimulatedCluster } from '../../src/cluster/sim/index.js';
import { scan, type DoctorReport } from '../../src/doctor/scan.js';

export const fast = { recreateDelayMs: 50, readyDelayMs: 50 } as const;

/** A simulated cluster that shows only real signals: its fault annotation is hidden from the API. */
export async function hiddenSim(options: { platformVersion?: string } = {}): Promise<SimulatedCluster> {
  const sim = await startSimulatedCluster({ ...fast, hideMarkers: true, ...options });
  await sim.settle();
  return sim;
}

/** The doctor on the simulated cluster, reaching its dashboard and database at their own addresses. */
export async function doctor(sim: SimulatedCluster): Promise<DoctorReport> {
  return scan(new ClusterGateway(sim.kubeConfig(), { callTimeoutMs: 5_000 }), { ...sim.names, ...sim.addresses }, catalogue);
}

export const present = (report: DoctorReport): string[] => report.findings.filter((f) => f.state === 'present').map((f) => f.id);
export const stateOf = (report: DoctorReport, id: string) => report.findings.find((f) => f.id === id);
