/**
 * Whether a message that matched no entry still deserves an answer ("no catalogued remedy"): it looks
 * like an error or a question about one. Chatter gets no answer; the bot does not talk on every message.
 */
const errorWords =
  /\b(?:error|errors|failed|failure|fails|failing|fatal|panic|exception|denied|forbidden|unauthorized|refused|timeout|timed out|crashloopbackoff|imagepullbackoff|errimagepull|oomkilled|evicted|backoff|cannot|can't|unable|not working|doesn't work|does not work|broken|stuck|traceback|x509)\b/i;

export function looksLikeError(text: string): boolean {
  return errorWords.test(text.length > 20_000 ? text.slice(0, 20_000) : text);
}
