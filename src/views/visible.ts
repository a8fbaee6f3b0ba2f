/**
 * Control characters (tab and newline aside) and the marks that turn text around: never shown raw. A NUL
 * or an escape sequence that a person typed and the bot repeats back would be hidden, cut the text or act
 * on a terminal; a right-to-left override would show the words in another order than they are.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const unseen = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Text with each of those characters written as its escape (`\x00`, `\x1b`, `\u202e`), so that it shows. */
export function visible(text: string): string {
  return text.replace(unseen, (c) => {
    const n = c.charCodeAt(0);
    return n <= 0xff ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`;
  });
}
