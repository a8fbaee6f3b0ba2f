import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { catalogue } from '../catalogue/index.js';
import { defaultPlatformNames } from '../platform-names.js';
import { workerRbac } from './rbac.js';
import { renderRbacYaml } from './rbac-manifest.js';

/** `npm run gen:rbac`: writes deploy/rbac.yaml from the catalogue, for the names of a standard install. */
export const rbacYamlPath = fileURLToPath(new URL('../../deploy/rbac.yaml', import.meta.url));

export function currentRbacYaml(): string {
  return renderRbacYaml(workerRbac(catalogue, defaultPlatformNames), defaultPlatformNames);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await writeFile(rbacYamlPath, currentRbacYaml());
  console.log(`wrote ${rbacYamlPath}`);
}
