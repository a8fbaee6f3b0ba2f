import type { MarkerHit } from './table-markers.js';
import { Kind, type CompiledCatalogue } from './literals.js';

/** Kinds of literal an entry has (Kind's values other than the table reader's Marker). */
const KINDS = 6;
/** Evidence lines kept per entry and kind: enough to show, cheap on huge logs. */
export const EVIDENCE_CAP = 5;
/** Context and exclude lines kept per entry: they are weighed against nearby evidence. */
const NEARBY_CAP = 4096;
/** Table-marker lines kept; a pasted table longer than this is read only in part. */
const MARKER_CAP = 4096;

/** A line where a signature matched: its number, where it starts in the text, and which ref. */
export interface Hit {
  readonly line: number;
  readonly start: number;
  readonly ref: number;
}

/** What one scan of a text found, per entry; filled by the scanner, read by the scorer. */
export class Hits {
  /** Distinct refs seen per entry and kind: distinct[entry * KINDS + kind]. */
  readonly distinct: Int32Array;
  private readonly refSeen: Uint8Array;
  /** Per entry: error, phrase and downstream hits (first EVIDENCE_CAP lines of each kind). */
  readonly evidence: Hit[][];
  /** Per entry: context and exclude hits, one per line and ref. */
  readonly nearby: Hit[][];
  readonly markers: MarkerHit[] = [];
  private readonly lastLine: Int32Array;

  constructor(readonly compiled: CompiledCatalogue) {
    const n = compiled.entries.length;
    this.distinct = new Int32Array(n * KINDS);
    this.refSeen = new Uint8Array(compiled.refs.length);
    this.lastLine = new Int32Array(compiled.refs.length).fill(-1);
    this.evidence = Array.from({ length: n }, () => []);
    this.nearby = Array.from({ length: n }, () => []);
  }

  /** Records that pattern `pattern` ended on `line` (which starts at offset `start`). */
  record(pattern: number, line: number, start: number): void {
    const { refStart, refs } = this.compiled;
    for (let r = refStart[pattern]!, end = refStart[pattern + 1]!; r < end; r++) {
      if (this.lastLine[r] === line) continue; // one hit per line and ref is all scoring needs
      this.lastLine[r] = line;
      const ref = refs[r]!;
      if (ref.kind === Kind.Marker) {
        if (this.markers.length < MARKER_CAP) this.markers.push({ marker: ref.marker!, line, start });
        continue;
      }
      if (this.refSeen[r] === 0) {
        this.refSeen[r] = 1;
        const at = ref.entry * KINDS + ref.kind;
        this.distinct[at] = this.distinct[at]! + 1;
      }
      if (ref.kind === Kind.Error || ref.kind === Kind.Phrase || ref.kind === Kind.Downstream) {
        const list = this.evidence[ref.entry]!;
        if (list.length < EVIDENCE_CAP * 3 && list.filter((h) => refs[h.ref]!.kind === ref.kind).length < EVIDENCE_CAP) {
          list.push({ line, start, ref: r });
        }
      } else {
        const list = this.nearby[ref.entry]!;
        if (list.length < NEARBY_CAP) list.push({ line, start, ref: r });
      }
    }
  }
}
