import type { StepContext } from '../steps/context.js';
import { readPlatformSecretKey } from '../steps/secret-key.js';
import { DashboardClient, DashboardError } from './client.js';

/**
 * A dashboard client for one plan or run, with the password read from the platform secret just now.
 * Nothing is cached: each plan and each run reads the secret again, so a rotated password is used.
 */
export async function openDashboard(ctx: StepContext): Promise<{ ok: true; client: DashboardClient } | { ok: false; message: string }> {
  const secret = await readPlatformSecretKey(ctx, ctx.names.dashboardPasswordKey);
  if (!secret.ok) return { ok: false, message: secret.message };
  return { ok: true, client: new DashboardClient({ baseUrl: ctx.names.dashboardUrl, user: ctx.names.dashboardUser, password: secret.value, passwordFrom: secret.where }) };
}

/** The user-safe text of an expected failure; anything else is a bug and is thrown on. */
export function dashboardFailure(err: unknown): string {
  if (err instanceof DashboardError) return err.message;
  throw err;
}
