/**
 * What a command answers, before any surface renders it: Slack draws it as Block Kit, the terminal and
 * the CLI as plain text (src/views). The core builds these and nothing else; it never writes mrkdwn.
 */

/** A run of inline text. Plain strings are shown as typed: each surface escapes them its own way. */
export type Span =
  | string
  /** A name, value or pasted line shown as code. */
  | { readonly code: string }
  /** A command of ours to type, shown as code as written (never from a user). */
  | { readonly command: string }
  | { readonly strong: Inline }
  | { readonly soft: Inline }
  /** A person: a Slack user id or a terminal operator's name. */
  | { readonly person: string }
  /** A link the bot was given by the surface (a Slack permalink): its address and the words shown for it. */
  | { readonly link: string; readonly label: string };

export type Inline = readonly Span[];

/** An answer's choices: buttons in Slack, commands to type at a terminal. */
export interface Choice {
  readonly label: string;
  /** The action a click sends (Slack's action_id), with its value: ids only, never a payload or a secret. */
  readonly action: string;
  readonly value: object;
  readonly style?: 'primary' | 'danger';
  /** What to type at the terminal for the same effect. */
  readonly command: string;
}

/** One piece of an answer. */
export type Part =
  | { readonly kind: 'heading'; readonly text: string }
  /** A paragraph, with a block of code under it when it has one. */
  | { readonly kind: 'text'; readonly text: Inline; readonly code?: string }
  /** Lines of one list; a surface with a size limit cuts the list and counts what it left out, or spreads it over `spread` paragraphs at most. */
  | { readonly kind: 'lines'; readonly lines: readonly Inline[]; readonly spread?: number }
  /** Small print: each note on its own. */
  | { readonly kind: 'note'; readonly notes: readonly Inline[] }
  /** Text to copy as it is (a command for a shell). */
  | { readonly kind: 'code'; readonly text: string }
  | { readonly kind: 'choices'; readonly id: string; readonly choices: readonly Choice[] };

/** A whole answer: a one-line summary (Slack's notification text) and its parts. */
export interface View {
  readonly summary: Inline;
  readonly parts: readonly Part[];
}

type Piece = Span | Inline | number | undefined | false;

/**
 * Inline text from a template: literal parts and interpolated strings stay plain text (never markup),
 * span objects keep their kind. `t\`There is no entry ${code(id)}.\``
 */
export function t(strings: TemplateStringsArray, ...values: Piece[]): Inline {
  const out: Span[] = [];
  strings.forEach((s, i) => {
    if (s) out.push(s);
    if (i >= values.length) return;
    const v = values[i];
    if (v === undefined || v === false) return;
    if (typeof v === 'number') out.push(String(v));
    else if (Array.isArray(v)) out.push(...(v as Inline));
    else out.push(v as Span);
  });
  return out;
}

export const code = (text: string): Span => ({ code: text });
export const command = (text: string): Span => ({ command: text });
export const strong = (...text: Span[]): Span => ({ strong: text });
export const soft = (...text: Span[]): Span => ({ soft: text });
export const person = (id: string): Span => ({ person: id });
/** A link, only to an https address without spaces or markup characters; anything else is shown as its label alone. */
export const link = (url: string, label: string): Span => (/^https:\/\/[^\s<>|`"]+$/.test(url) ? { link: url, label } : label);

/** Inline pieces joined with a separator. */
export function joined(items: readonly Inline[], separator: string): Inline {
  return items.flatMap((item, i) => (i === 0 ? item : [separator, ...item]));
}

export const heading = (text: string): Part => ({ kind: 'heading', text });
export const para = (text: Inline, codeBlock?: string): Part => ({ kind: 'text', text, ...(codeBlock !== undefined ? { code: codeBlock } : {}) });
export const note = (...notes: Inline[]): Part => ({ kind: 'note', notes });
export const lines = (items: readonly Inline[], spread?: number): Part => ({ kind: 'lines', lines: items, ...(spread ? { spread } : {}) });

/** The words of inline text, without markup: the summary of an answer, a log line. */
export function plainWords(text: Inline): string {
  return text.map((s) => (typeof s === 'string' ? s : 'code' in s ? s.code : 'command' in s ? s.command : 'person' in s ? s.person : 'link' in s ? s.label : plainWords('strong' in s ? s.strong : s.soft))).join('');
}

/**
 * Text written with `backticks` (usage lines, a refusal from the queue side) as inline text: the
 * ticked pieces become commands when the text is all ours, code when it may quote what a person typed.
 * With `people`, Slack mentions in it (`<@U123>`) become people: only for text whose mentions are ours
 * (the queue side names who holds an entry). Text that quotes a person's words keeps them as typed: a
 * backtick they typed ends the code span around their words, and what follows it must not mention anyone.
 */
export function ticked(text: string, as: 'command' | 'code' = 'code', options: { readonly people?: boolean } = {}): Inline {
  return text.split('`').flatMap((piece, i): Span[] => {
    if (i % 2 === 1) return [as === 'command' ? { command: piece } : { code: piece }];
    if (!options.people) return piece === '' ? [] : [piece];
    return piece.split(/<@([UW][A-Z0-9]+)>/).map((p, j): Span => (j % 2 === 1 ? { person: p } : p)).filter((p) => p !== '');
  });
}

/** An answer of one paragraph. */
export const says = (text: Inline): View => ({ summary: text, parts: [para(text)] });
