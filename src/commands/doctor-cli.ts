import type { KubeConfig } from '@kubernetes/client-node';
import { catalogue } from '../catalogue/index.js';
import { ClusterGateway } from '../cluster/gateway.js';
import { clusterKubeConfig, KubeConfigError, loadKubeConfigFromFlags } from '../cluster/kubeconfig.js';
import { brokenSpec } from '../cluster/sim/broken-spec.js';
import { faultEntries, localDatabase, simulatedClusterName, startSimulatedCluster, type SimulatedCluster } from '../cluster/sim/index.js';
import { ConfigError, findCluster, loadConfig, noSuchClusterText, type Config } from '../config.js';
import { doctorView } from '../core/doctor.js';
import { scan, type DoctorReport } from '../doctor/index.js';
import { whereItShows } from '../doctor/detectors/not-observable.js';
import { parseFlags } from '../cli-flags.js';
import { InputError } from '../errors.js';
import { defaultPlatformNames, type PlatformNames } from '../platform-names.js';
import { toText } from '../views/plain.js';
import type { CliIO } from './match-cli.js';

const usage = 'usage: platform-medic doctor [--json] [--cluster NAME | --kubeconfig PATH [--context C]] [--broken ENTRY[:DEPTH]]';

interface DoctorArgs {
  json: boolean;
  cluster?: string;
  kubeconfig?: string;
  context?: string;
  broken?: string;
}

function parseArgs(args: readonly string[]): DoctorArgs {
  const flags = parseFlags('doctor', args, { '--json': 'switch', '--cluster': 'value', '--kubeconfig': 'value', '--context': 'value', '--broken': 'value' });
  const out: DoctorArgs = { json: flags.has('--json') };
  for (const name of ['cluster', 'kubeconfig', 'context', 'broken'] as const) {
    const v = flags.value(`--${name}`);
    if (v !== undefined) out[name] = v;
  }
  if (out.cluster && (out.kubeconfig || out.context)) throw new InputError(`--cluster and --kubeconfig/--context name a cluster twice; ${usage}`);
  const real = (out.cluster !== undefined && out.cluster !== simulatedClusterName) || out.kubeconfig !== undefined || out.context !== undefined;
  if (out.broken && real) throw new InputError('--broken breaks the simulated cluster; it cannot be used with a real one');
  if (out.broken) {
    const { entryId } = brokenSpec(out.broken);
    // An entry whose --broken only moves the installer's version has no broken state for a detector to see.
    if (!faultEntries.some((e) => e.entryId === entryId)) {
      throw new InputError(`--broken ${entryId}: the simulated cluster only moves the installer's version for it, which the doctor does not judge; try it in the terminal: npm run terminal -- --broken ${entryId}`);
    }
    // An entry the doctor cannot see from the cluster (a browser, a cloud console, an upgrade's own command) would be
    // "no symptom" on a cluster broken for it.
    const detector = catalogue.find((e) => e.id === entryId)?.detector;
    if (detector === undefined || detector.kind === 'notObservable') {
      throw new InputError(`--broken ${entryId}: the doctor cannot see this entry from the cluster${detector ? ` (it shows ${whereItShows[detector.where]})` : ''}; try it in the terminal: npm run terminal -- --broken ${entryId}`);
    }
  }
  return out;
}

/**
 * The doctor's "Plan fix" on the command line, which plans nothing itself: the same command in Slack and in the terminal,
 * on the same cluster: the terminal's flags that reach it (`terminalArgs`). A simulated cluster broken by --broken is
 * broken the same way in the terminal only with the same flag, and a kubeconfig's cluster is reached with the same
 * kubeconfig: `npm start`'s simulated cluster is a fresh, healthy one, where the fix would find nothing to do.
 */
const whereToPlan =
  (terminalArgs: string | undefined) =>
  (commands: readonly string[]): string => {
    const terminal = terminalArgs ? `npm run terminal -- ${terminalArgs}` : 'npm start';
    // A value left to fill (`database=<database-name>`) is one the terminal's cluster has its own of: its doctor names it.
    const fill = commands.some((c) => /=<[a-z0-9-]{1,60}>/.test(c)) ? ' There, `doctor` names the value to fill in.' : '';
    return `To plan it: ${commands.map((c) => `"/platform ${c}" in Slack, or "${c}" in the terminal (${terminal})`).join('; ')}.${fill}`;
  };

/** The terminal's flags that reach the cluster the doctor read; none for `npm start`'s simulated one. */
function terminalArgs(opts: DoctorArgs): string | undefined {
  if (opts.broken) return `--broken ${opts.broken}`;
  if (opts.kubeconfig || opts.context) return [opts.kubeconfig ? `--kubeconfig ${opts.kubeconfig}` : '', opts.context ? `--context ${opts.context}` : ''].filter(Boolean).join(' ');
  if (opts.cluster && opts.cluster !== simulatedClusterName) return `--cluster ${opts.cluster}`;
  return undefined;
}

/** The `--json` answer: one object, one finding per catalogue entry. */
export function doctorJson(cluster: string, report: DoctorReport): string {
  return JSON.stringify({ cluster, findings: report.findings.map((f) => ({ id: f.id, ref: f.ref, state: f.state, evidence: f.evidence.map((e) => ({ object: e.object, detail: e.detail })) })) });
}

/**
 * A fresh simulated cluster that shows only what a real one would (its fault annotation hidden), with
 * its metrics dashboard and, as the demo's, the local PostgreSQL as the platform's database.
 */
async function simulated(broken: string | undefined): Promise<SimulatedCluster> {
  const sim = await startSimulatedCluster({ hideMarkers: true, recreateDelayMs: 200, readyDelayMs: 200, database: localDatabase });
  await sim.settle();
  if (broken) {
    const { entryId, depth } = brokenSpec(broken);
    try {
      // Entry 16's broken state is a real database's: it is broken once the promise resolves.
      await sim.break(entryId, depth ? { depth } : undefined);
    } catch (err) {
      await sim.close();
      throw new InputError(`--broken ${broken.slice(0, 60)}: ${(err as Error).message}`);
    }
    await sim.settle();
  }
  return sim;
}

/**
 * `platform-medic doctor`: every entry's detector, in this process (no queue, no Redis), on a configured
 * cluster, a kubeconfig, or a fresh simulated cluster. Exit 0 when no symptom is present, 1 when one
 * or more are, 3 when some (or all: a configured cluster's kube it cannot use) could not be told, 2 for bad input
 * (a configuration that is not valid included).
 */
export async function runDoctorCommand(args: string[], io: Pick<CliIO, 'stdout' | 'stderr'>): Promise<number> {
  const opts = parseArgs(args);
  let sim: SimulatedCluster | undefined;
  let kubeConfig: KubeConfig;
  let names: PlatformNames = defaultPlatformNames;
  let clusterName: string;
  if (opts.cluster && opts.cluster !== simulatedClusterName) {
    let config: Config;
    try {
      config = loadConfig();
    } catch (err) {
      // Exit 1 is "a symptom is present": a configuration that cannot be read is bad input (2), on one line, as gen-rbac says it.
      if (!(err instanceof ConfigError)) throw err;
      io.stderr.write(`platform-medic doctor: the configuration is not valid: ${err.problems.join('; ').replace(/\s+/g, (run) => (run.includes('\n') ? ' ' : run))}\n`);
      return 2;
    }
    const cluster = findCluster(config, opts.cluster);
    if (!cluster) throw new InputError(`--cluster: ${noSuchClusterText(opts.cluster, [simulatedClusterName, ...config.clusters.map((c) => c.name)])} Or use --kubeconfig PATH.`);
    names = cluster;
    if (cluster.kube.source === 'simulated') {
      sim = await simulated(undefined);
      kubeConfig = sim.kubeConfig();
      names = { ...cluster, ...sim.addresses };
    } else {
      try {
        kubeConfig = clusterKubeConfig(cluster);
      } catch (err) {
        // A kube this process cannot use (in-cluster outside a cluster, no kubeconfig found) tells nothing of the
        // cluster: exit 3, as a cluster it cannot read, never 1, which says a symptom is present.
        if (!(err instanceof KubeConfigError)) throw err;
        io.stderr.write(`platform-medic: ${err.safeMessage}\n`);
        return 3;
      }
    }
    clusterName = cluster.name;
  } else if (opts.kubeconfig || opts.context) {
    kubeConfig = loadKubeConfigFromFlags(opts.kubeconfig ? { source: 'kubeconfig', path: opts.kubeconfig, ...(opts.context ? { context: opts.context } : {}) } : { source: 'default', context: opts.context });
    // Named as the terminal names it on the same flags (README): the fix line then works there as printed.
    clusterName = 'local';
  } else {
    sim = await simulated(opts.broken);
    kubeConfig = sim.kubeConfig();
    // The simulated platform's dashboard and database are reached at their own addresses.
    names = { ...defaultPlatformNames, ...sim.addresses };
    clusterName = simulatedClusterName;
  }
  try {
    const scanned = await scan(new ClusterGateway(kubeConfig, { callTimeoutMs: 10_000 }), names, catalogue);
    // A fresh simulated cluster is this command's own and goes with it: a value its evidence shows (the demo database's
    // random name) is not the one of the terminal the fix line sends the person to, whose own doctor names its own.
    const report = sim ? { ...scanned, findings: scanned.findings.map(({ fixParams: _seen, ...f }) => f) } : scanned;
    io.stdout.write(`${opts.json ? doctorJson(clusterName, report) : toText(doctorView(report, clusterName), { choices: whereToPlan(terminalArgs(opts)) })}\n`);
    if (report.findings.some((f) => f.state === 'present')) return 1;
    // None seen, but some could not be told (a cluster that cannot be read tells nothing): not "no symptom".
    return report.findings.some((f) => f.state === 'unknown' && f.reason !== 'no-detector') ? 3 : 0;
  } finally {
    await sim?.close();
  }
}
