import type { ObjectMetaSummary } from '../../cluster/gateway.js';
import type { StepContext } from './context.js';

/**
 * "The platform's" service and ingress (select: 'platform'), by what they route to rather than by name:
 * - services whose selector picks the main pods (every key of the selector is in the main label
 *   `app=devtron`), e.g. `devtron-service` but not `devtron-grafana`;
 * - ingresses with a backend that is one of those services, e.g. `devtron-ingress`.
 * Names change between installs and charts; what routes to the main pods does not.
 */
/** `app=devtron,tier=api` → { app: 'devtron', tier: 'api' }: the equality terms of a label selector. */
export function equalityLabels(selector: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const term of selector.split(',')) {
    const m = /^([^=!]*)==?([^=]*)$/.exec(term);
    const key = m?.[1]?.trim() ?? '';
    const value = m?.[2]?.trim() ?? '';
    if (m && key !== '' && !/\s/.test(key) && !/\s/.test(value)) out[key] = value;
  }
  return out;
}

export async function platformObjects(ctx: StepContext, resource: 'services' | 'ingresses', namespace: string): Promise<ObjectMetaSummary[]> {
  const main = equalityLabels(ctx.names.mainPodLabel);
  const services = (await ctx.gateway.metadata.list('services', namespace)).filter((s) => {
    const selector = Object.entries(s.selector ?? {});
    return selector.length > 0 && selector.every(([k, v]) => main[k] === v);
  });
  if (resource === 'services') return services;
  const names = new Set(services.map((s) => s.name));
  return (await ctx.gateway.metadata.list('ingresses', namespace)).filter((i) => (i.backends ?? []).some((b) => names.has(b)));
}
