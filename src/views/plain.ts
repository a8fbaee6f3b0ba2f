import { visible } from './visible.js';
import type { Inline, Part, View } from '../core/view.js';

/** Inline text as plain words: code is shown bare, a Slack user as @id; control characters escaped (visible.ts). */
export function plainText(text: Inline): string {
  return text
    .map((s) => {
      if (typeof s === 'string') return visible(s);
      if ('code' in s) return visible(s.code);
      if ('command' in s) return visible(s.command);
      if ('strong' in s) return plainText(s.strong);
      if ('soft' in s) return plainText(s.soft);
      if ('link' in s) return visible(`${s.label} ${s.link}`);
      return /^[UW][A-Z0-9]+$/.test(s.person) ? `@${s.person}` : visible(s.person);
    })
    .join('');
}

/**
 * How a surface prints what a person can do next (a `choices` part): the terminal takes the commands as
 * they are ("Type …"); a one-shot command line plans nothing itself, so it says where they are typed.
 */
export interface TextOptions {
  readonly choices?: (commands: readonly string[]) => string;
}

const typeThem = (commands: readonly string[]): string => `Type ${commands.map((c) => `"${c}"`).join(' or ')}.`;

function partText(part: Part, options: TextOptions): string[] {
  switch (part.kind) {
    case 'heading':
      return [`== ${visible(part.text)} ==`];
    case 'text':
      return part.code === undefined ? [plainText(part.text)] : [plainText(part.text), visible(part.code)];
    case 'lines':
      return part.lines.map(plainText);
    case 'note':
      return part.notes.map((n) => `  ${plainText(n)}`);
    case 'code':
      // Printed as it is, without fences or indentation, so that it pastes into a shell unchanged.
      return [visible(part.text)];
    case 'choices':
      return [`  ${(options.choices ?? typeThem)(part.choices.map((c) => c.command))}`];
  }
}

/** An answer as the terminal and the CLI print it: plain text, no markup. */
export function toText(view: View, options: TextOptions = {}): string {
  return view.parts.flatMap((part) => partText(part, options)).join('\n');
}
