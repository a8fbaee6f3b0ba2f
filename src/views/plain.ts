import type { Inline, Part, View } from '../core/view.js';

/** Inline text as plain words: code is shown bare, a Slack user as @id. */
export function plainText(text: Inline): string {
  return text
    .map((s) => {
      if (typeof s === 'string') return s;
      if ('code' in s) return s.code;
      if ('command' in s) return s.command;
      if ('strong' in s) return plainText(s.strong);
      if ('soft' in s) return plainText(s.soft);
      if ('link' in s) return `${s.label} ${s.link}`;
      return /^[UW][A-Z0-9]+$/.test(s.person) ? `@${s.person}` : s.person;
    })
    .join('');
}

function partText(part: Part): string[] {
  switch (part.kind) {
    case 'heading':
      return [`== ${part.text} ==`];
    case 'text':
      return part.code === undefined ? [plainText(part.text)] : [plainText(part.text), part.code];
    case 'lines':
      return part.lines.map(plainText);
    case 'note':
      return part.notes.map((n) => `  ${plainText(n)}`);
    case 'code':
      // Printed as it is, without fences or indentation, so that it pastes into a shell unchanged.
      return [part.text];
    case 'choices':
      return [`  Type ${part.choices.map((c) => `"${c.command}"`).join(' or ')}.`];
  }
}

/** An answer as the terminal and the CLI print it: plain text, no markup. */
export function toText(view: View): string {
  return view.parts.flatMap(partText).join('\n');
}
