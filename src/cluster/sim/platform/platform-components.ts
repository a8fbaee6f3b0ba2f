import type { PlatformNames } from '../../../platform-names.js';
import type { ControllerTimings } from '../apiserver/controllers.js';
import { kinds } from '../apiserver/resources.js';
import type { Scheduler } from '../apiserver/scheduler.js';
import type { InstalledDashboard } from './dashboard/installed.js';
import { b64, bcryptLike, gitopsServerTls, newPassword } from './secret-material.js';
import { matchesLabels, parseLabelSelector } from '../apiserver/selectors.js';
import type { ObjectStore, StoreEvent } from '../apiserver/store.js';
import { kubeTime } from '../apiserver/types.js';

/**
 * What the platform's own components do to their secrets when they start, which the guide's resets
 * rely on (section 5.2, 5.3, entry 22):
 * - the identity (dex) server regenerates the admin password when ADMIN_PASSWORD is missing from the
 *   platform secret (ADMIN_PASSWORD, admin.password, admin.passwordMtime);
 * - the GitOps server generates fresh tls.crt/tls.key when they are missing from its secret, and on
 *   older versions a new admin password when admin.password is missing (its plain text in ACD_PASSWORD).
 * Dex acts a moment after its pod is Ready, so a reader may have to wait for ADMIN_PASSWORD to reappear.
 * The main pod reads the metrics dashboard's data source version when it starts (guide entry 8).
 */
export class PlatformComponents {
  private readonly unsubscribe: () => void;

  constructor(
    private readonly store: ObjectStore,
    private readonly scheduler: Scheduler,
    private readonly timings: ControllerTimings,
    private readonly names: PlatformNames,
    private readonly dashboard: InstalledDashboard,
  ) {
    this.unsubscribe = store.subscribe((event) => this.onEvent(event));
  }

  stop(): void {
    this.unsubscribe();
  }

  private onEvent({ type, kind, object }: StoreEvent): void {
    if (kind !== kinds.pod || type !== 'ADDED' || object.metadata.namespace !== this.names.platformNamespace) return;
    const labels = object.metadata.labels;
    // Dex writes the new password a moment after it is Ready (readers must poll); the GitOps server
    // makes its material before it serves, so it is there once the pod is Ready.
    if (matchesLabels(parseLabelSelector(this.names.dexServerLabel), labels)) this.scheduler.after(this.timings.readyDelayMs * 2, () => this.dexStarted());
    if (matchesLabels(parseLabelSelector(this.names.gitopsServerLabel), labels)) this.scheduler.after(0, () => this.gitopsServerStarted());
    // The main pod reads the dashboard's data source (and its version) as it starts (entry 8).
    if (matchesLabels(parseLabelSelector(this.names.mainPodLabel), labels)) this.dashboard.mainPodStarted();
  }

  private dexStarted(): void {
    const secret = this.store.get(kinds.secret, this.names.platformNamespace, this.names.platformSecret);
    const data = (secret?.['data'] as Record<string, string> | undefined) ?? {};
    if (!secret || data['ADMIN_PASSWORD'] !== undefined) return;
    secret['data'] = { ...data, ADMIN_PASSWORD: b64(newPassword()), 'admin.password': b64(bcryptLike()), 'admin.passwordMtime': b64(kubeTime()) };
    this.store.update(kinds.secret, secret);
  }

  private gitopsServerStarted(): void {
    const ns = this.names.platformNamespace;
    const secret = this.store.get(kinds.secret, ns, this.names.gitopsSecret);
    if (!secret) return;
    const data = { ...((secret['data'] as Record<string, string> | undefined) ?? {}) };
    if (data['tls.crt'] === undefined || data['tls.key'] === undefined) Object.assign(data, gitopsServerTls());
    let plain: string | undefined;
    if (data['admin.password'] === undefined) {
      plain = newPassword();
      Object.assign(data, { 'admin.password': b64(bcryptLike()), 'admin.passwordMtime': b64(kubeTime()) });
    }
    secret['data'] = data;
    this.store.update(kinds.secret, secret);
    const platform = plain === undefined ? undefined : this.store.get(kinds.secret, ns, this.names.platformSecret);
    if (platform && plain !== undefined) {
      platform['data'] = { ...((platform['data'] as Record<string, string> | undefined) ?? {}), ACD_PASSWORD: b64(plain) };
      this.store.update(kinds.secret, platform);
    }
  }
}
