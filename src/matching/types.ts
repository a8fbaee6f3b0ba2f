/** The answer the matcher gives for one pasted text; the bot renders it as it is. */

/** One line of the paste that made an entry likely. */
export interface Evidence {
  /** 1-based line number in the pasted text. */
  readonly line: number;
  /** The line, trimmed and cut to about 300 characters (a JSON record shows its message text). */
  readonly text: string;
  /** The signature that matched, as written in the catalogue (or the table rule that recognised it). */
  readonly signature: string;
}

/** One catalogue entry the paste may be about. */
export interface Candidate {
  readonly id: string;
  readonly ref: string;
  readonly title: string;
  /** 0..1: how often an answer shown first at this score was right on real pastes (calibration.ts). */
  readonly confidence: number;
  readonly evidence: readonly Evidence[];
}

/**
 * Why the matcher asks instead of proposing a fix: `close` (two or three entries are about as likely),
 * `gentler` (a destructive remedy whose gentler alternatives explain the same message), `subject` (the
 * paste names something other than the platform, whose remedy acts on the platform).
 */
export type AskReason = 'close' | 'gentler' | 'subject';

/**
 * `match`: one entry clearly, its fix is proposed (alternatives after it). `ask`: two or three plausible
 * entries, or one with a doubt (`why`), shown for the person to choose; no fix is proposed. In both,
 * `matches` are at most 3, in the order shown. `no-match`: an abstention with the entries worth
 * explaining (never a fix); `note` says why when the reason is not the text itself: 'binary', 'applied'
 * (the paste shows the guide's remedy for `tried` already in place and the error persisting: the guide has
 * nothing further, and proposing the same remedy again would be one that has already failed), or 'declined'
 * (the person asks for another way than that remedy, and the guide has none).
 */
export type MatchResult =
  | { readonly verdict: 'match'; readonly matches: readonly Candidate[]; readonly table: keyof Calibration }
  | { readonly verdict: 'ask'; readonly matches: readonly Candidate[]; readonly why: AskReason; readonly table: keyof Calibration }
  | { readonly verdict: 'no-match'; readonly matches: readonly []; readonly nearest: readonly string[]; readonly note?: 'binary' }
  | { readonly verdict: 'no-match'; readonly matches: readonly []; readonly nearest: readonly string[]; readonly note: TriedNote; readonly tried: Candidate };

/**
 * Why a `no-match` names the entry whose remedy it does not propose: the paste shows that remedy in place with the error
 * persisting ('applied'), or asks for another way than it ('declined'); either way the guide has nothing further.
 */
export type TriedNote = 'applied' | 'declined';

/**
 * The calibration of the confidence shown, one table per kind of answer. A remedy for any product (an
 * ingress annotation, a controller's IAM policy) fits most pastes that show its error; one that acts on the
 * platform, or on the apps it deploys, fits only the platform's pastes, and the same words come from many
 * other products: at the same raw score its answers are right far less often, so it is fitted on its own —
 * and apart again for pastes that name the platform (or a component, or a place of its dashboard) and those
 * that do not, which on real pastes are right a few times in ten against about one in ten.
 * `match`'s `table` says which table an answer's confidence was read from.
 */
export interface Calibration {
  readonly generic: readonly CalibrationPoint[];
  /** Remedies acting on the platform or its apps, for a paste that names the platform. */
  readonly platform: readonly CalibrationPoint[];
  /** The same remedies for a paste that does not. */
  readonly platformUnnamed: readonly CalibrationPoint[];
}

/** One band of the confidence calibration (calibration.ts): a raw score and how often answers there were right. */
export interface CalibrationPoint {
  /** The middle of a band of raw scores. */
  readonly score: number;
  /** How often the first entry shown at scores in that band was the right one. */
  readonly right: number;
}
