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
  for (const m of versionStatements(text)) {
    const after = text.charCodeAt(m.index + m[0].length);
    // Part of a longer dotted or dashed token (0.22.30-rc, 0.5.0.1): not a version statement.
    if (after === 46 || after === 45 || (after >= 48 && after <= 57)) continue;
    found.push([0, Number(m[1]), m[2] === undefined || m[2] === 'x' ? 0 : Number(m[2])]);
  }
  return found;
}

/**
 * The matches of patterns.platformVersion, left to right and not overlapping, as a global search gives
 * them; but the pattern is tried only where one can start. Every statement has its "0." at most two
 * characters after its start (a separator, then a "v"), so the next one starts no earlier than two
 * characters before the next "0." of the text: `indexOf` finds those, instead of the regular
 * expression trying every position of a long log, whose timestamps are full of "0.".
 */
function versionStatements(text: string): RegExpExecArray[] {
  const re = patterns.platformVersion;
  const out: RegExpExecArray[] = [];
  let from = 0;
  for (let at = text.indexOf('0.'); at >= 0; at = text.indexOf('0.', from)) {
    // After a digit ("10:00:00.123", "1709287200.5"), a "0." starts no statement: a digit is neither a separator nor a "v".
    const before = text.charCodeAt(at - 1);
    if (before >= 48 && before <= 57) {
      from = at + 1;
      continue;
    }
    let m: RegExpExecArray | null = null;
    for (let start = Math.max(from, at - 2); start <= at && m === null; start++) {
      re.lastIndex = start;
      m = re.exec(text);
    }
    if (m === null) {
      from = at + 1;
      continue;
    }
    out.push(m);
    from = m.index + m[0].length;
  }
  return out;
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
