import type { types } from '@slack/bolt';
import { visible } from '../visible.js';

/** A Block Kit block as Slack accepts it. */
export type Block = types.KnownBlock;

/** Slack's limits that our builders respect (platform-facts.md). */
export const limits = { sectionText: 3000, buttonText: 75, buttonValue: 2000, headerText: 150, blocks: 50, contextElements: 10 } as const;

/** Cuts text to a limit, saying that it was cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = '… (cut)';
  return text.slice(0, max - note.length) + note;
}

/** Lines joined into one section text within Slack's limit; the overflow is counted, not dropped silently. */
export function fitLines(lines: readonly string[], max: number = limits.sectionText): string {
  const out: string[] = [];
  let used = 0;
  for (const [i, line] of lines.entries()) {
    const remaining = lines.length - i;
    const tail = `\n… and ${remaining} more`;
    if (used + line.length + 1 + tail.length > max) {
      out.push(`… and ${remaining} more`);
      break;
    }
    out.push(line);
    used += line.length + 1;
  }
  return out.join('\n');
}

/** Escapes text for mrkdwn, so names and pasted text cannot form links or mentions, nor hold a raw control character. */
export function esc(text: string): string {
  return visible(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function section(text: string): Block {
  return { type: 'section', text: { type: 'mrkdwn', text: clip(text, limits.sectionText) } };
}

export function context(...texts: string[]): Block {
  return { type: 'context', elements: texts.slice(0, limits.contextElements).map((t) => ({ type: 'mrkdwn' as const, text: clip(t, limits.sectionText) })) };
}

export function header(text: string): Block {
  return { type: 'header', text: { type: 'plain_text', text: clip(visible(text), limits.headerText), emoji: true } };
}

/** A modal that only says `text`: the answer to a form or shortcut the bot cannot take. */
export function noticeModal(text: string): types.ModalView {
  return { type: 'modal', title: { type: 'plain_text', text: 'platform-medic' }, close: { type: 'plain_text', text: 'Close' }, blocks: [section(text)] };
}

/** A button; its value carries ids only, never a Slack payload or a secret. */
export function button(actionId: string, text: string, value: object, style?: 'primary' | 'danger'): types.Button {
  return {
    type: 'button',
    action_id: actionId,
    text: { type: 'plain_text', text: clip(text, limits.buttonText), emoji: true },
    value: clip(JSON.stringify(value), limits.buttonValue),
    ...(style ? { style } : {}),
  };
}

/** Slack user mention, or the plain name of a terminal user. */
export function who(user: string): string {
  return /^[UW][A-Z0-9]+$/.test(user) ? `<@${user}>` : esc(user);
}

/** `2026-11-21 13:04 UTC` */
export function when(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
