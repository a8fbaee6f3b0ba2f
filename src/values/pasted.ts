import type { HelmCommand } from './schema.js';
import type { SetKind } from './set-flags.js';

/** How the values were pasted; answers are written back in the same form. */
export type PasteForm = 'yaml' | 'set' | 'helm';

/** Where a key came from: its YAML line and indentation, or the --set flag that set it. */
export interface Origin {
  readonly line?: number;
  readonly indent?: number;
  readonly flag?: SetKind;
  /** The key's value is a mapping in braces (`configs: {A: b}`): a key missing under it is added inside them. */
  readonly braces?: boolean;
}

/** Pasted values, read. */
export interface PastedValues {
  readonly form: PasteForm;
  readonly values: Record<string, unknown>;
  /** By keyText of the path. */
  readonly origins: ReadonlyMap<string, Origin>;
  /** What could not be checked, or is worth knowing (never a value). */
  readonly notes: string[];
  readonly helm?: HelmCommand;
  /** Secret values seen in the paste, to scrub from every answer. Never stored beyond the answer. */
  readonly secrets: ReadonlySet<string>;
}
