/**
 * Slack sends message and command text with `&`, `<` and `>` escaped, and links wrapped as
 * `<https://x|x>` or `<https://x>`; mentions arrive as `<@U123>`, `<!channel>` or `<#C123|name>`.
 * Values and pastes are read as the person typed them. The tokens are unwrapped by a scan rather than a
 * pattern, which would rescan from every `<`.
 */
export function fromSlackText(text: string, options: { readonly mentions?: 'keep' | 'drop' } = {}): string {
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
    // A mention is not part of what was pasted ("@platform-medic build logs are not visible"): a person's
    // or a channel's name stays as a word, a broadcast goes.
    const mention = options.mentions === 'drop' && (inside.startsWith('@') || inside.startsWith('!') || inside.startsWith('#')) && !/\s/.test(inside);
    const named = bar === -1 ? '' : inside.slice(bar + 1);
    const kept = link ? (bar === -1 ? inside : inside.slice(0, bar)) : mention ? (named === '' || inside.startsWith('!') ? '' : `${inside[0]}${named}`) : text.slice(open, close + 1);
    out += text.slice(i, open) + kept;
    i = close + 1;
  }
  out += text.slice(i);
  return out.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/**
 * A message or a command is typed text, whatever it holds: Slack passes a NUL through, and one NUL made the
 * matcher read the whole message as a binary file. It is written `\x00`, as every answer shows it; a shared
 * file's bytes are still judged as a file's.
 */
export function typedText(text: string): string {
  return text.replaceAll('\u0000', '\\x00');
}
