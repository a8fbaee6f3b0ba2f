import type { VersionConstraint } from '../catalogue/model.js';
import { patterns } from './patterns.js';

/**
 * Platform versions a paste states (`LTAG=v0.6.1`, "we're on 0.7.x", a Helm APP VERSION column),
 * so that an entry whose procedure is for other versions (5.2 from v0.6.9, 5.3 before it) steps
 * aside. Only 0.x versions are read: the constraints of the guide are all 0.x, a later version
 * satisfies every `atLeast`, and other numbers of that shape (Kubernetes 1.22, image tags) abound.
 */

/** Pastes longer than this are logs; their version numbers are image tags and the like. */
const MAX_CHARS = 64 * 1024;

type Version = readonly [number, number, number];

export function statedVersions(text: string): Version[] {
  if (text.length > MAX_CHARS) return [];
  const found: Version[] = [];
  for (const m of text.matchAll(patterns.platformVersion)) {
    const after = text.charCodeAt(m.index + m[0].length);
    // Part of a longer dotted or dashed token (0.22.30-rc, 0.5.0.1): not a version statement.
    if (after === 46 || after === 45 || (after >= 48 && after <= 57)) continue;
    found.push([0, Number(m[1]), m[2] === undefined || m[2] === 'x' ? 0 : Number(m[2])]);
  }
  return found;
}

function parse(v: string): Version {
  const [a = 0, b = 0, c = 0] = v.replace('v', '').split('.').map(Number);
  return [a, b, c];
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** True when the paste states versions and none of them is one the entry applies to. */
export function ruledOutByVersion(constraint: VersionConstraint | undefined, stated: readonly Version[]): boolean {
  if (!constraint || stated.length === 0 || (!constraint.atLeast && !constraint.below)) return false;
  return stated.every(
    (v) => (constraint.atLeast !== undefined && compare(v, parse(constraint.atLeast)) < 0) || (constraint.below !== undefined && compare(v, parse(constraint.below)) >= 0),
  );
}
