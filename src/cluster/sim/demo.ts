import { UserFacingError } from '../../errors.js';
import { brokenSpec } from './broken-spec.js';
import { faultEntries, localDatabase, startSimulatedCluster, versionGates, type SimulatedCluster } from './index.js';
import { installedMetricsStore } from './platform/dashboard/installed.js';

/** The simulated platform of the demo, and what to tell the person trying it. */
export interface DemoPlatform {
  readonly sim: SimulatedCluster;
  /** Lines to print before the first prompt: where the platform is, what is broken, what is missing. */
  readonly notes: string[];
}

/**
 * The demo's platform (the terminal without a cluster, and `npm run sim`): the simulated cluster with
 * its metrics dashboard and the local PostgreSQL as the platform's database, broken as `broken` asks
 * (each `ENTRY[:DEPTH]`). Without a PostgreSQL the demo still starts, and says in one line how to give it one.
 */
export async function startDemoPlatform(options: { broken?: readonly string[]; host?: string; port?: number; log?: (line: string) => void } = {}): Promise<DemoPlatform> {
  const sim = await startSimulatedCluster({
    database: localDatabase,
    ...(options.host ? { host: options.host } : {}),
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  try {
    const notes = [`Metrics dashboard at ${sim.dashboard.url} (user ${sim.names.dashboardUser}, password in ${sim.names.platformNamespace}/${sim.names.platformSecret} key ${sim.names.dashboardPasswordKey}).`];
    const problem = await sim.database?.problem();
    if (problem) notes.push(problem);
    for (const broken of options.broken ?? []) notes.push(...(await breakForDemo(sim, broken)));
    return { sim, notes };
  } catch (error) {
    await sim.close();
    throw error;
  }
}

/** The entries `--broken` can break: those with a broken state, and those whose remedy only needs an installer version. */


/**
 * What `--broken ENTRY[:DEPTH]` does: the installer's version first set to one the entry's remedy
 * accepts, then the entry's broken state when the platform has one (an entry with only a version gate,
 * whose repair is in the platform's dashboard, gets only the version). Returns what to tell the person.
 */
export async function breakForDemo(sim: SimulatedCluster, spec: string): Promise<string[]> {
  const { entryId, depth } = brokenSpec(spec);
  const notes: string[] = [];
  const version = sim.meetVersionGate(entryId);
  if (version) notes.push(`The installer's version is now ${version}, as ${entryId} needs.`);
  if (versionGates[entryId] !== undefined && !faultEntries.some((e) => e.entryId === entryId)) return notes;
  await sim.break(entryId, depth ? { depth } : undefined).catch((error: unknown) => {
    // Without a PostgreSQL the message is the one line that says how to give the demo one.
    throw entryId === 'database-drop-blocked' ? new UserFacingError('no-database', (error as Error).message, { cause: error }) : error;
  });
  // The value the remedy asks for that only the cluster knows, said as the command to type.
  if (entryId === 'dashboards-missing') notes.push(`The metrics store this cluster registers is ${installedMetricsStore}: try \`fix dashboards-missing metricsStore=${installedMetricsStore}\`.`);
  for (const name of sim.database?.blockedDatabases() ?? []) {
    notes.push(`Database "${name}" on PostgreSQL at ${localDatabase.host}:${localDatabase.port} has a session open, so it cannot be dropped: try \`fix database-drop-blocked database=${name}\`.`);
  }
  return notes;
}
