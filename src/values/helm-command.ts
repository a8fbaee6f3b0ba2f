import { defaultPlatformNames, type PlatformNames } from '../platform-names.js';
import { gcpCredentialFromFile, keys, keyText, type KeyPath } from './keys.js';
import { shellQuote } from './shell.js';

/*
 * The parts of a `helm upgrade` command that the catalogue prints too (entry 18). Kept free of the
 * schema and YAML libraries: the catalogue is loaded by every command, `match` and `explain` included.
 */

/**
 * The platform's chart and its repository values file. The command's shape follows Devtron's upgrade
 * guides (https://docs.devtron.ai/upgrade/devtron-upgrade-0.4.x-0.4.x and
 * https://docs.devtron.ai/upgrade/devtron-upgrade-0.6.x-0.7.x): `helm repo update`, then
 * `helm upgrade devtron devtron/devtron-operator --namespace devtroncd --reuse-values -f …/devtron-bom.yaml
 * --set installer.modules={cicd}`; the storage keys follow Devtron's installation configuration page.
 */
export const chartRef = 'devtron/devtron-operator';
export const bomUrl = 'https://raw.githubusercontent.com/devtron-labs/devtron/main/charts/devtron/devtron-bom.yaml';
/** The database volume size of entry 18 and section 8. */
export const defaultVolumeSize = '20Gi';

/** A value as `--set` reads it back: lists in braces, commas and backslashes escaped. */
function setValue(value: unknown): string {
  const escape = (s: string) => s.replace(/\\/g, '\\\\').replace(/,/g, '\\,');
  if (Array.isArray(value)) return `{${value.map((v) => escape(String(v))).join(',')}}`;
  return escape(String(value));
}

/** `--set` would type it (true, 12, null): a string that looks so needs `--set-string`. */
const looksTyped = (s: string): boolean => /^(?:true|false|null|0|-?[1-9][0-9]{0,17})$/i.test(s);

/** The flag that sets `path` to `value`, quoted for the shell. */
export function setFlag(path: KeyPath, value: unknown): string {
  const key = keyText(path);
  if (value === gcpCredentialFromFile) return `--set ${key}="${value}"`;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return `--set-json ${shellQuote(`${key}=${JSON.stringify(value)}`)}`;
  const flag = typeof value === 'string' && looksTyped(value) ? '--set-string' : '--set';
  return `${flag} ${shellQuote(`${key}=${setValue(value)}`)}`;
}

/** Entry 18's upgrade command: only the fixed parts and the volume size, storage values reused as they are. */
export function entry18UpgradeCommand(names: Pick<PlatformNames, 'platformNamespace' | 'installerReleaseName'> = defaultPlatformNames, volumeSize = defaultVolumeSize): string {
  const flags = [`-f ${bomUrl}`, '--set installer.modules={cicd}', setFlag(keys.volumeSize, volumeSize)];
  return `helm repo update\n${[`helm upgrade ${names.installerReleaseName} ${chartRef} --namespace ${names.platformNamespace} --reuse-values`, ...flags].join(' \\\n  ')}`;
}
