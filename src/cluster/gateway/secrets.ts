import { CoreV1Api, PatchStrategy, setHeaderOptions, type KubeConfig } from '@kubernetes/client-node';
import { knownSecrets } from '../../known-secrets.js';
import { type ApiCaller, dryRunOf } from './call.js';

/** A secret as the remedies hold it. `data` values are base64 and must never be logged or reported. */
export interface SecretData {
  readonly uid: string;
  readonly resourceVersion: string;
  readonly type: string;
  readonly data: Record<string, string>;
}

/** A JSON pointer token (RFC 6901): `~` and `/` escaped. */
const pointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** Secrets: read, back up, remove keys. */
export class SecretsGateway {
  private readonly core: CoreV1Api;
  constructor(
    kubeConfig: KubeConfig,
    private readonly api: ApiCaller,
  ) {
    this.core = kubeConfig.makeApiClient(CoreV1Api);
  }

  /** A secret's keys and base64 values, or undefined when it does not exist. */
  async read(namespace: string, name: string): Promise<SecretData | undefined> {
    const secret = await this.api.find(`get secret ${namespace}/${name}`, () => this.core.readNamespacedSecret({ namespace, name }));
    if (!secret) return undefined;
    // Every value read is now known to this process, so the logger scrubs it even if a bug passes it on.
    knownSecrets.addSecretData(secret.data ?? {});
    return { uid: secret.metadata?.uid ?? '', resourceVersion: secret.metadata?.resourceVersion ?? '', type: secret.type ?? 'Opaque', data: { ...(secret.data ?? {}) } };
  }

  /** Creates a secret (the backup of another); returns its uid. */
  async create(namespace: string, secret: { name: string; labels: Record<string, string>; type: string; data: Record<string, string> }, dryRun?: boolean): Promise<string> {
    const created = await this.api.call(`create secret ${namespace}/${secret.name}`, () =>
      this.core.createNamespacedSecret({
        namespace,
        body: { metadata: { name: secret.name, namespace, labels: secret.labels }, type: secret.type, data: secret.data },
        ...dryRunOf(dryRun),
      }),
    );
    return created.metadata?.uid ?? '';
  }

  /**
   * Removes keys with a JSON patch whose first operation tests the resourceVersion, so the keys go
   * only from the secret exactly as planned; a changed secret fails with 422 and nothing is removed.
   */
  async removeKeys(namespace: string, name: string, keys: readonly string[], resourceVersion: string, dryRun?: boolean): Promise<string> {
    const ops = [{ op: 'test', path: '/metadata/resourceVersion', value: resourceVersion }, ...keys.map((k) => ({ op: 'remove', path: `/data/${pointer(k)}` }))];
    const patched = await this.api.call(`patch secret ${namespace}/${name}`, () =>
      this.core.patchNamespacedSecret({ namespace, name, body: ops, ...dryRunOf(dryRun) }, setHeaderOptions('Content-Type', PatchStrategy.JsonPatch)),
    );
    return patched.metadata?.resourceVersion ?? '';
  }
}
