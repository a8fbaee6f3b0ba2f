import { describe, expect, it } from 'vitest';
import { jsonPatch, mergePatch, strategicMergePatch } from '../../../src/cluster/sim/apiserver/patch.js';
import { matchesLabels, parseLabelSelector } from '../../../src/cluster/sim/apiserver/selectors.js';

describe('label selectors', () => {
  const labels = { app: 'devtron', tier: 'api', 'app.kubernetes.io/name': 'argocd-server' };
  const cases: Array<[string, boolean]> = [
    ['app=devtron', true],
    ['app==devtron', true],
    ['app!=devtron', false],
    ['app!=other', true],
    ['missing!=x', true],
    ['app in (kubewatch, devtron)', true],
    ['app notin (devtron)', false],
    ['tier', true],
    ['!tier', false],
    ['!missing', true],
    ['app=devtron,tier in (api),!missing', true],
    ['app=devtron,tier=web', false],
    ['app.kubernetes.io/name=argocd-server', true],
    ['', true],
  ];
  it.each(cases)('%s → %s', (selector, expected) => {
    expect(matchesLabels(parseLabelSelector(selector), labels)).toBe(expected);
  });

  it.each(['app in devtron', 'app=a b', '=x', 'a/b/c=d'])('rejects %s with a 400 Status', (selector) => {
    expect(() => parseLabelSelector(selector)).toThrow(expect.objectContaining({ code: 400 }));
  });
});

describe('patches', () => {
  it('merge patch replaces lists and deletes on null', () => {
    expect(mergePatch({ a: { b: 1, c: 2 }, l: [1, 2] }, { a: { b: null, d: 3 }, l: [3] })).toEqual({ a: { c: 2, d: 3 }, l: [3] });
  });

  it('strategic merge patch merges containers by name, honours $patch: delete and ignores $setElementOrder', () => {
    const target = { spec: { containers: [{ name: 'a', image: 'a:1', ports: [{ containerPort: 80 }] }, { name: 'b', image: 'b:1' }] } };
    const patched = strategicMergePatch(target, {
      spec: { $setElementOrder: [], '$setElementOrder/containers': [{ name: 'a' }], containers: [{ name: 'a', image: 'a:2' }, { name: 'b', $patch: 'delete' }, { name: 'c', image: 'c:1' }] },
    });
    expect(patched).toEqual({ spec: { $setElementOrder: [], containers: [{ name: 'a', image: 'a:2', ports: [{ containerPort: 80 }] }, { name: 'c', image: 'c:1' }] } });
  });

  it('JSON patch adds, removes, replaces, moves, copies and tests, without touching its input', () => {
    const input = { a: [1, 2], b: { 'x/y': 1, '~t': 2 } };
    const out = jsonPatch(input, [
      { op: 'add', path: '/a/-', value: 3 },
      { op: 'add', path: '/a/0', value: 0 },
      { op: 'remove', path: '/b/x~1y' },
      { op: 'replace', path: '/b/~0t', value: 5 },
      { op: 'copy', from: '/b', path: '/c' },
      { op: 'move', from: '/c', path: '/d' },
      { op: 'test', path: '/d', value: { '~t': 5 } },
    ]);
    expect(out).toEqual({ a: [0, 1, 2, 3], b: { '~t': 5 }, d: { '~t': 5 } });
    expect(input).toEqual({ a: [1, 2], b: { 'x/y': 1, '~t': 2 } });
    expect(() => jsonPatch(input, [{ op: 'remove', path: '/nope' }])).toThrow(/nonexistent|missing/);
  });

  it('JSON patch refuses what kube-apiserver refuses, in its words, and applies nothing', () => {
    const input = { a: [1, 2], b: { c: 1 } };
    const refused = (ops: unknown[]) => {
      try {
        jsonPatch(input, ops);
      } catch (error) {
        return { message: (error as Error).message, kind: (error as { kind?: string }).kind };
      }
      return undefined;
    };
    expect(refused([{ op: 'add', path: '/x/y', value: 1 }])).toEqual({ message: 'doc is missing path: "/x/y": missing value', kind: 'invalid' });
    expect(refused([{ op: 'add', path: '/a/5', value: 1 }])).toEqual({ message: 'Unable to access invalid index: 5 of "/a/5"', kind: 'invalid' });
    expect(refused([{ op: 'remove', path: '/a/2' }])).toMatchObject({ kind: 'invalid' });
    expect(refused([{ op: 'replace', path: '/b/nope', value: 1 }])).toEqual({ message: 'Unable to remove nonexistent key: nope: missing value', kind: 'invalid' });
    expect(refused([{ op: 'copy', from: '/nope', path: '/c' }])).toEqual({ message: 'doc is missing path: "/nope": missing value', kind: 'invalid' });
    expect(refused([{ op: 'add', path: '/c', value: 1 }, { op: 'test', path: '/b/c', value: 2 }])).toEqual({ message: 'testing value /b/c failed: test failed', kind: 'invalid' });
    // An unknown operation or a pointer without its leading slash decodes, and fails only when applied: a 422 as
    // any other operation that does not apply (k8s.io/apiserver/pkg/endpoints/handlers/patch.go, applyJSPatch).
    expect(refused([{ op: 'frobnicate', path: '/a' }])).toEqual({ message: 'Unexpected kind: frobnicate', kind: 'invalid' });
    expect(refused([{ op: 'add', path: 'a', value: 1 }])).toEqual({ message: 'invalid JSON pointer "a"', kind: 'invalid' });
    expect(refused(['add'])).toMatchObject({ kind: 'malformed' });
    expect(refused({ op: 'add', path: '/a', value: 1 } as unknown as unknown[])).toMatchObject({ kind: 'malformed' });
    expect(input).toEqual({ a: [1, 2], b: { c: 1 } });
  });
});
