/**
 * Slack sends message and command text with `&`, `<` and `>` escaped, and links wrapped as
 * `<https://x|x>` or `<https://x>`. Values pasted there are read as the person typed them.
 * The links are unwrapped by a scan rather than a pattern, which would rescan from every `<`.
 */
export function fromSlackText(text: string): string {
  let out = '';
  let i = 0;
  for (;;) {
    const open = text.indexOf('<', i);
    if (open === -1) break;
    const close = text.indexOf('>', open);
    if (close === -1) break;
    const inside = text.slice(open + 1, close);
    const link = /^(?:https?|mailto):/.test(inside) && !/\s/.test(inside);
    const bar = inside.indexOf('|');
    out += text.slice(i, open) + (link ? (bar === -1 ? inside : inside.slice(0, bar)) : text.slice(open, close + 1));
    i = close + 1;
  }
  out += text.slice(i);
  return out.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}
