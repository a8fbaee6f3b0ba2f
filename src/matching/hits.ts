import type { MarkerHit } from './table-markers.js';
import { Kind, type CompiledCatalogue } from './literals.js';

/** Kind's values as this module's own constants: read per hit, an import binding is a getter under tsx (see scan.ts). */
const KIND_CONTEXT = Kind.Context;
const KIND_EXCLUDE = Kind.Exclude;
const KIND_MARKER = Kind.Marker;

/** Kinds of literal an entry has (Kind's values other than the table reader's Marker). */
const KINDS = 6;
/** Evidence lines kept per entry and kind: enough to show, cheap on huge logs. */
export const EVIDENCE_CAP = 5;
/** Context and exclude lines kept per entry: they are weighed against nearby evidence. */
const NEARBY_CAP = 4096;
/** Table-marker lines kept; a pasted table longer than this is read only in part. */
const MARKER_CAP = 4096;
/** Room for this many context and exclude lines before the array grows (a 40 KB log has about a thousand). */
const NEARBY_ROOM = 2048;

/** A line where a signature matched: its number, where it starts in the text, and which ref. */
export interface Hit {
  readonly line: number;
  readonly start: number;
  readonly ref: number;
}

/**
 * What one scan of a text found, per entry; filled by the scanner, read by the scorer.
 *
 * Context and exclude lines are by far the most numerous: a log names the same components on line
 * after line ("argocd", "kubelet", "registry"), and a context text is shared by several entries. They
 * are kept in flat typed arrays, one chain per entry, not as an object each: on a 40 KB log those
 * objects were most of what the matcher allocated, and the collections they caused were its slowest
 * moments. Walk an entry's chain with `firstNearby` / `nextNearby`.
 */
export class Hits {
  /** Per entry: error, phrase and downstream hits (first EVIDENCE_CAP lines of each kind). */
  readonly evidence: Hit[][];
  readonly markers: MarkerHit[] = [];
  /** Per pattern: the last line it was recorded on (0: none yet; lines count from 1). */
  private readonly lastLine: Int32Array;
  /** Per entry and kind: evidence hits kept, evidenceKept[entry * KINDS + kind]. */
  private readonly evidenceKept: Int32Array;
  /** Per entry: its first and last context or exclude hit (-1: none), and how many it has. */
  private readonly nearbyHead: Int32Array;
  private readonly nearbyTail: Int32Array;
  private readonly nearbyKept: Int32Array;
  /** Per context or exclude hit i: its line, its ref and the entry's next hit (-1: the last), at 3i, 3i + 1, 3i + 2. */
  private nearbyHits = new Int32Array(3 * NEARBY_ROOM);
  private nearbyCount = 0;

  constructor(readonly compiled: CompiledCatalogue) {
    const n = compiled.entries.length;
    this.lastLine = new Int32Array(compiled.refStart.length);
    this.evidenceKept = new Int32Array(n * KINDS);
    this.nearbyHead = new Int32Array(n).fill(-1);
    this.nearbyTail = new Int32Array(n).fill(-1);
    this.nearbyKept = new Int32Array(n);
    this.evidence = Array.from({ length: n }, () => []);
  }

  /**
   * Records that pattern `pattern` ended on `line` (which starts at offset `start`): once per line,
   * one hit per line and ref being all scoring needs (a pattern's refs are always recorded together).
   */
  record(pattern: number, line: number, start: number): void {
    if (this.lastLine[pattern] === line) return;
    this.lastLine[pattern] = line;
    const { refStart, refEntry, refKind } = this.compiled;
    for (let r = refStart[pattern]!, end = refStart[pattern + 1]!; r < end; r++) {
      const kind = refKind[r]!;
      if (kind === KIND_MARKER) {
        if (this.markers.length < MARKER_CAP) this.markers.push({ marker: this.compiled.refs[r]!.marker!, line, start });
      } else if (kind === KIND_CONTEXT || kind === KIND_EXCLUDE) {
        this.addNearby(refEntry[r]!, line, r);
      } else {
        const entry = refEntry[r]!;
        const list = this.evidence[entry]!;
        const at = entry * KINDS + kind;
        if (list.length < EVIDENCE_CAP * 3 && this.evidenceKept[at]! < EVIDENCE_CAP) {
          this.evidenceKept[at]!++;
          list.push({ line, start, ref: r });
        }
      }
    }
  }

  private addNearby(entry: number, line: number, ref: number): void {
    if (this.nearbyKept[entry]! >= NEARBY_CAP) return;
    this.nearbyKept[entry]!++;
    const i = this.nearbyCount++;
    if (3 * i === this.nearbyHits.length) {
      const wider = new Int32Array(2 * this.nearbyHits.length);
      wider.set(this.nearbyHits);
      this.nearbyHits = wider;
    }
    const hit = this.nearbyHits;
    hit[3 * i] = line;
    hit[3 * i + 1] = ref;
    hit[3 * i + 2] = -1;
    const tail = this.nearbyTail[entry]!;
    if (tail < 0) this.nearbyHead[entry] = i;
    else hit[3 * tail + 2] = i;
    this.nearbyTail[entry] = i;
  }

  /** The entry's first context or exclude hit, in the order of the text, or -1. */
  firstNearby(entry: number): number {
    return this.nearbyHead[entry]!;
  }

  /** The entry's hit after hit i, or -1. */
  nextNearby(i: number): number {
    return this.nearbyHits[3 * i + 2]!;
  }

  nearbyLine(i: number): number {
    return this.nearbyHits[3 * i]!;
  }

  nearbyRef(i: number): number {
    return this.nearbyHits[3 * i + 1]!;
  }

  /** The entry's context and exclude hits as lines and refs, in order: for inspection (the scorer walks the chain). */
  nearby(entry: number): { line: number; ref: number }[] {
    const out: { line: number; ref: number }[] = [];
    for (let i = this.firstNearby(entry); i >= 0; i = this.nextNearby(i)) out.push({ line: this.nearbyLine(i), ref: this.nearbyRef(i) });
    return out;
  }
}
