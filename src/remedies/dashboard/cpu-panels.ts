import type { DashboardModel } from './api.js';
import { removeImageFilter } from './promql.js';

/** One query of a CPU panel, before and after the filter is removed. */
export interface QueryEdit {
  readonly panelId: number;
  readonly panelTitle: string;
  readonly refId: string;
  readonly before: string;
  readonly after: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every panel of a dashboard: top level, inside collapsed rows (`panels[].panels`), and old-style `rows[].panels`. */
function* panelsOf(dashboard: Json): Generator<Json> {
  const lists = [dashboard.panels, ...(Array.isArray(dashboard.rows) ? dashboard.rows.filter(isObject).map((r) => r.panels) : [])];
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const panel of list.filter(isObject)) {
      yield panel;
      if (Array.isArray(panel.panels)) yield* panel.panels.filter(isObject);
    }
  }
}

/** Only panels whose title mentions CPU are edited: the guide's memory graphs work and stay as they are. */
const isCpuPanel = (panel: Json) => typeof panel.title === 'string' && /cpu/i.test(panel.title);

/**
 * Finds the CPU panels' queries that hold `image!=""` and, when `apply` is set, rewrites them in place
 * in the given dashboard object. Returns each edit, in panel order.
 */
export function cpuFilterEdits(dashboard: DashboardModel, apply = false): QueryEdit[] {
  const edits: QueryEdit[] = [];
  for (const panel of panelsOf(dashboard)) {
    if (!isCpuPanel(panel) || !Array.isArray(panel.targets)) continue;
    for (const target of panel.targets.filter(isObject)) {
      if (typeof target.expr !== 'string') continue;
      const r = removeImageFilter(target.expr);
      if (r.removed === 0) continue;
      edits.push({ panelId: typeof panel.id === 'number' ? panel.id : -1, panelTitle: String(panel.title), refId: typeof target.refId === 'string' ? target.refId : '?', before: target.expr, after: r.expr });
      if (apply) target.expr = r.expr;
    }
  }
  return edits;
}
