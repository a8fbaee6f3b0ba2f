import type { Inline, Part, View } from '../../core/view.js';
import { visible } from '../visible.js';
import { button, clip, context, esc, fitLines, header, limits, section, who, type Block } from './kit.js';

/** A code span Slack cannot close early: backticks inside become quotes. */
const codeSpan = (text: string): string => `\`${esc(text.replace(/`{3}/g, '').replace(/`/g, "'"))}\``;

/** A code block that cannot be closed early by the text inside it. */
export function fence(text: string): string {
  return `\`\`\`${esc(text.replace(/`{3}/g, "'''"))}\`\`\``;
}

/** Inline text as mrkdwn: plain text escaped, so what a person typed can never mention or link. */
export function mrkdwn(text: Inline): string {
  return text
    .map((s) => {
      if (typeof s === 'string') return esc(s);
      if ('code' in s) return codeSpan(s.code);
      if ('command' in s) return `\`${visible(s.command)}\``;
      if ('strong' in s) return `*${mrkdwn(s.strong)}*`;
      if ('soft' in s) return `_${mrkdwn(s.soft)}_`;
      if ('link' in s) return `<${esc(s.link)}|${esc(s.label).replace(/\|/g, '/')}>`;
      return who(s.person);
    })
    .join('');
}

/** Lines spread over as many sections as they need (each holds 3000 characters), at most `max`. */
function spreadLines(lines: readonly string[], max: number): Block[] {
  const sections: Block[] = [];
  let chunk: string[] = [];
  let size = 0;
  for (const line of lines) {
    if (size + line.length + 1 > limits.sectionText && chunk.length > 0) {
      sections.push(section(chunk.join('\n')));
      chunk = [];
      size = 0;
    }
    chunk.push(line.slice(0, limits.sectionText));
    size += line.length + 1;
  }
  if (chunk.length > 0) sections.push(section(chunk.join('\n')));
  return sections.slice(0, max);
}

function partBlocks(part: Part): Block[] {
  switch (part.kind) {
    case 'heading':
      return [header(part.text)];
    case 'text':
      // A code block under a paragraph is a short fix: both fit one section.
      return [section(part.code === undefined ? mrkdwn(part.text) : `${clip(mrkdwn(part.text), limits.sectionText - 400)}\n${fence(clip(part.code, 300))}`)];
    case 'lines': {
      const rendered = part.lines.map(mrkdwn);
      return part.spread ? spreadLines(rendered, part.spread) : [section(fitLines(rendered))];
    }
    case 'note':
      return [context(...part.notes.map(mrkdwn))];
    case 'code':
      return [section(fence(part.text))];
    case 'choices':
      return [{ type: 'actions', block_id: part.id, elements: part.choices.map((c) => button(c.action, c.label, c.value, c.style)) }];
  }
}

/** An answer as Slack shows it. */
export function toBlocks(view: View): Block[] {
  return view.parts.flatMap(partBlocks);
}

/** An answer as a Slack message: the notification text and the blocks. */
export function slackMessage(view: View): { text: string; blocks: Block[] } {
  return { text: mrkdwn(view.summary), blocks: toBlocks(view) };
}
