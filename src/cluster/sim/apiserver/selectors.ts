import { statusErrors } from './errors.js';
import type { KubeObject } from './types.js';

/** One requirement of a label selector, in the grammar of Kubernetes' labels package. */
export type LabelRequirement =
  | { key: string; op: 'in' | 'notin'; values: string[] }
  | { key: string; op: 'exists' | 'doesnotexist' }
  | { key: string; op: 'gt' | 'lt'; value: number };

/** A parsed label selector: every requirement must hold (comma means AND). */
export type LabelSelector = LabelRequirement[];

// Kubernetes' qualified name: optional DNS-1123 prefix and "/", then 1..63 of [A-Za-z0-9_.-] starting and ending alphanumeric.
const namePart = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)$/;
const prefixPart = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const valuePart = /^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$/;

function checkKey(key: string): string {
  const slash = key.indexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if ((prefix !== undefined && (!prefixPart.test(prefix) || prefix.length > 253)) || !namePart.test(name)) {
    throw statusErrors.badRequest(`unable to parse requirement: <nil>: Invalid value: "${key}": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`);
  }
  return key;
}

function checkValue(value: string): string {
  if (!valuePart.test(value) || value.length > 63) {
    throw statusErrors.badRequest(`unable to parse requirement: values[0]: Invalid value: "${value}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`);
  }
  return value;
}

/** Splits on commas that are not inside a `( ... )` value set. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  parts.push(current);
  return parts;
}

function parseRequirement(raw: string): LabelRequirement {
  const text = raw.trim();
  const set = /^(\S+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(text);
  if (set) {
    const values = (set[3] ?? '').split(',').map((v) => checkValue(v.trim()));
    return { key: checkKey(set[1] ?? ''), op: set[2] === 'in' ? 'in' : 'notin', values };
  }
  const equality = /^([^=!<>\s]+)\s*(==|=|!=)\s*([^=!<>\s]*)$/.exec(text);
  if (equality) {
    const key = checkKey(equality[1] ?? '');
    const value = checkValue(equality[3] ?? '');
    return { key, op: equality[2] === '!=' ? 'notin' : 'in', values: [value] };
  }
  const compare = /^([^=!<>\s]+)\s*([<>])\s*(-?\d+)$/.exec(text);
  if (compare) return { key: checkKey(compare[1] ?? ''), op: compare[2] === '>' ? 'gt' : 'lt', value: Number(compare[3]) };
  const absent = /^!\s*([^=!<>\s()]+)$/.exec(text);
  if (absent) return { key: checkKey(absent[1] ?? ''), op: 'doesnotexist' };
  if (/^[^=!<>\s()]+$/.test(text)) return { key: checkKey(text), op: 'exists' };
  throw statusErrors.badRequest(`unable to parse requirement: found '${text}', expected: in, notin, =, ==, !=, gt, lt`);
}

/** Parses `a=b,c in (x,y),!d`; an empty or absent selector selects everything. Throws a 400 Status on bad syntax. */
export function parseLabelSelector(text: string | null | undefined): LabelSelector {
  if (!text || text.trim() === '') return [];
  return splitTopLevel(text).map(parseRequirement);
}

export function matchesLabels(selector: LabelSelector, labels: Record<string, string> | undefined): boolean {
  const l = labels ?? {};
  return selector.every((r) => {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    const value = l[r.key];
    switch (r.op) {
      case 'in':
        return has && r.values.includes(value ?? '');
      case 'notin':
        return !has || !r.values.includes(value ?? '');
      case 'exists':
        return has;
      case 'doesnotexist':
        return !has;
      case 'gt':
        return has && Number(value) > r.value;
      case 'lt':
        return has && Number(value) < r.value;
    }
  });
}

/** `app=devtron` style single-pair selectors (the names configuration uses them) as a label map. */
export function labelsOf(selector: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const r of parseLabelSelector(selector)) {
    if (r.op === 'in' && r.values.length === 1) labels[r.key] = r.values[0] ?? '';
  }
  return labels;
}

/** A `spec.selector` in matchLabels/matchExpressions form, as workloads carry it. */
export interface WorkloadSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}

export function fromWorkloadSelector(sel: WorkloadSelector | undefined): LabelSelector {
  const out: LabelSelector = Object.entries(sel?.matchLabels ?? {}).map(([key, v]) => ({ key, op: 'in' as const, values: [v] }));
  for (const e of sel?.matchExpressions ?? []) {
    const op = e.operator.toLowerCase();
    if (op === 'in' || op === 'notin') out.push({ key: e.key, op, values: e.values ?? [] });
    else if (op === 'exists' || op === 'doesnotexist') out.push({ key: e.key, op });
  }
  return out;
}

/** A field selector requirement; only the fields the real API server supports for every kind, plus pod phase. */
export interface FieldRequirement {
  field: string;
  value: string;
  negate: boolean;
}

const fieldGetters: Record<string, (o: KubeObject) => string | undefined> = {
  'metadata.name': (o) => o.metadata.name,
  'metadata.namespace': (o) => o.metadata.namespace,
  'status.phase': (o) => {
    const status = o['status'] as { phase?: string } | undefined;
    return status?.phase;
  },
  'spec.nodeName': (o) => {
    const spec = o['spec'] as { nodeName?: string } | undefined;
    return spec?.nodeName;
  },
  // Events' own fields (kubernetes pkg/registry/core/event/strategy.go, ToSelectableFields).
  type: (o) => o['type'] as string | undefined,
  reason: (o) => o['reason'] as string | undefined,
  'involvedObject.kind': (o) => (o['involvedObject'] as { kind?: string } | undefined)?.kind,
  'involvedObject.name': (o) => (o['involvedObject'] as { name?: string } | undefined)?.name,
  'involvedObject.namespace': (o) => (o['involvedObject'] as { namespace?: string } | undefined)?.namespace,
};

const eventOnly = new Set(['type', 'reason', 'involvedObject.kind', 'involvedObject.name', 'involvedObject.namespace']);

export function parseFieldSelector(text: string | null | undefined, kindName: string): FieldRequirement[] {
  if (!text || text.trim() === '') return [];
  return text.split(',').map((part) => {
    // Split at the first operator; the pieces are trimmed in code, which keeps the pattern linear.
    const m = /^([^=!]*)(==|=|!=)(.*)$/.exec(part);
    const field = m?.[1]?.trim() ?? '';
    if (!m || field === '' || /\s/.test(field)) throw statusErrors.badRequest(`invalid selector: '${text}'; can't understand '${part}'`);
    const podOnly = field === 'status.phase' || field === 'spec.nodeName';
    if (!fieldGetters[field] || (podOnly && kindName !== 'Pod') || (eventOnly.has(field) && kindName !== 'Event')) {
      throw statusErrors.badRequest(`field label not supported: ${field}`);
    }
    return { field, value: (m[3] ?? '').trim(), negate: m[2] === '!=' };
  });
}

export function matchesFields(reqs: FieldRequirement[], obj: KubeObject): boolean {
  return reqs.every((r) => {
    const actual = fieldGetters[r.field]?.(obj) ?? '';
    return r.negate ? actual !== r.value : actual === r.value;
  });
}
