import type { Block } from './slack/kit.js';

/** mrkdwn to terminal text: mentions and escapes undone, emphasis marks dropped. */
export function mrkdwnToText(text: string): string {
  return text
    .replace(/<@([A-Z0-9]+)>/g, '@$1')
    .replace(/\*([^*\n]+)\*/g, '$1')
    .replace(/(^|\s)_([^_\n]+)_(?=\s|$|[.,;:])/g, '$1$2')
    .replace(/`([^`\n]+)`/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/**
 * The same Block Kit the Slack surface posts, as terminal text: what a person reads in Slack is what
 * they read in the terminal. Buttons are listed as the answers the prompt accepts.
 */
export function blocksToText(blocks: readonly Block[]): string {
  const out: string[] = [];
  for (const b of blocks) {
    switch (b.type) {
      case 'header':
        out.push(`== ${b.text.text} ==`);
        break;
      case 'section':
        if (b.text) out.push(mrkdwnToText(b.text.text));
        for (const f of b.fields ?? []) out.push(mrkdwnToText(f.text));
        break;
      case 'context':
        for (const e of b.elements) if ('text' in e) out.push(`  ${mrkdwnToText(e.text)}`);
        break;
      case 'actions':
        out.push(`  [${b.elements.map((e) => ('text' in e && e.text && 'text' in e.text ? e.text.text : '?')).join('] [')}]`);
        break;
      default:
        break;
    }
  }
  return out.join('\n');
}
