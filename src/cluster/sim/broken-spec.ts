import { InputError } from '../../errors.js';
import { closestWord } from '../../spelling.js';
import { simulatedClusterName } from './apiserver/kubeconfig.js';
import { faultEntries } from './platform/faults.js';
import { versionGates } from './platform/versions.js';

/**
 * What `--broken ENTRY[:DEPTH]` may name, checked without starting (or loading) the simulated cluster: the
 * command line refuses a mistyped entry or depth at once, before the terminal or the simulator loads.
 */

export const breakableEntries: readonly string[] = [...new Set([...faultEntries.map((e) => e.entryId), ...Object.keys(versionGates)])];

/**
 * `--broken ENTRY[:DEPTH]` read and checked before anything starts: an entry the simulated cluster
 * can break, and a depth only where the entry has depths, one of them. Anything else is bad input.
 */
export function brokenSpec(spec: string): { entryId: string; depth?: string } {
  const colon = spec.indexOf(':');
  const entryId = colon < 0 ? spec : spec.slice(0, colon);
  if (!breakableEntries.includes(entryId)) {
    // A misspelling is answered with the entry meant, as a mistyped flag or command is; otherwise the entries it can break.
    // The guide's number (`7.4`), which fix and explain take, is the catalogue's to resolve: the simulated cluster knows ids.
    const guideNumber = /^\d{1,2}\.\d{1,2}$/.test(entryId);
    const near = closestWord(entryId, breakableEntries);
    const advice = guideNumber ? `it takes the entry's id, not its guide number: platform-medic explain ${entryId} names it` : near ? `did you mean ${near}?` : `it knows ${breakableEntries.join(', ')}`;
    throw new InputError(`--broken: the simulated cluster cannot break "${entryId.slice(0, 60)}"; ${advice}`);
  }
  if (colon < 0) return { entryId };
  const depth = spec.slice(colon + 1);
  const depths = faultEntries.find((e) => e.entryId === entryId)?.depths ?? [];
  if (depths.length === 0) throw new InputError(`--broken ${spec.slice(0, 80)}: ${entryId} breaks one way only; use --broken ${entryId}`);
  if (!depths.includes(depth)) throw new InputError(`--broken ${spec.slice(0, 80)}: ${entryId} breaks as ${depths.map((d) => `"${d}"`).join(' or ')}, not "${depth.slice(0, 40)}"`);
  return { entryId, depth };
}

/**
 * The terminal's `--broken` with the flags that choose another cluster: it breaks the simulated cluster, so it
 * cannot be combined with a configured one or a kubeconfig; and what it names must be breakable.
 */
export function checkBrokenFlags(options: { readonly broken?: string; readonly cluster?: string; readonly kubeconfig?: string; readonly context?: string }): void {
  if (options.broken === undefined) return;
  if ((options.cluster ?? simulatedClusterName) !== simulatedClusterName) throw new InputError('--broken breaks the simulated cluster; it cannot be combined with --cluster NAME');
  if (options.kubeconfig !== undefined || options.context !== undefined) throw new InputError('--broken breaks the simulated cluster; it cannot be combined with --kubeconfig or --context');
  brokenSpec(options.broken);
}
