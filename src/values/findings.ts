import type { KeyPath } from './keys.js';

/**
 * How to put a problem right, independent of the form the values were pasted in; `render.ts` writes
 * it as a YAML line or a `--set` flag, as the person pasted it.
 */
export type Fix =
  /** Give the key this value (added if it is missing). */
  | { readonly kind: 'set'; readonly path: KeyPath; readonly value: unknown }
  /** Take the key out. */
  | { readonly kind: 'remove'; readonly path: KeyPath }
  /** Add a flag to the helm command (`--reuse-values`, `--namespace devtroncd`). */
  | { readonly kind: 'addFlag'; readonly flag: string }
  /** Take a flag out of the helm command (`--reset-values`). */
  | { readonly kind: 'dropFlag'; readonly flag: string }
  /** Nothing mechanical: what to do, in words. */
  | { readonly kind: 'advice'; readonly text: string };

/** Which part of the guide a problem breaks: a rule of 2.2, a format of 2.2/2.3, or entry 18. */
export type RuleRef =
  | '2.2 rule 1'
  | '2.2 rule 2'
  | '2.2 rule 3'
  | '2.2 rule 4'
  | '2.2 keys'
  | '2.2 type'
  | '2.2 format'
  | '2.3 format'
  | '7.18 upgrade';

/** One problem found in pasted values, before it is rendered for the person who pasted them. */
export interface Finding {
  /** The key (or, for a helm flag, the flag) the problem is about. */
  readonly key: string;
  readonly problem: string;
  readonly rule: RuleRef;
  readonly fix: Fix;
}

/** What a zod issue carries so that checkValues can make a Finding of it. */
export interface IssueParams {
  readonly rule: RuleRef;
  readonly fix?: Fix;
  /** For helm flags and other problems not at a value's path. */
  readonly key?: string;
}
