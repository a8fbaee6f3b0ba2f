import { patterns } from './patterns.js';

/** How much of the start of a text is sampled for control characters. */
const SAMPLE = 8192;
/** Above this share of control characters in the sample, the text is not a log but a binary file. */
const MAX_CONTROL_SHARE = 0.1;

/**
 * True for text that is not text: any NUL character (a text log never has one), or a sample that is
 * mostly control characters or replacement characters (bytes that were not UTF-8).
 */
export function looksBinary(text: string): boolean {
  if (text.indexOf('\u0000') >= 0) return true;
  const sample = text.length > SAMPLE ? text.slice(0, SAMPLE) : text;
  if (sample.length === 0) return false;
  const controls = sample.match(patterns.controlChar)?.length ?? 0;
  return controls / sample.length > MAX_CONTROL_SHARE;
}
