import { readInput } from './input.js';
import { explainView, unknownEntryView } from '../core/catalogue.js';
import { askWhy, pct } from '../core/match.js';
import { planFromCommandLine } from './plan-where.js';
import { parseFlags } from '../cli-flags.js';
import { findEntry } from '../catalogue/index.js';
import { match, type Candidate, type MatchResult } from '../matching/index.js';
import { redact } from '../redact.js';
import { plainText, toText } from '../views/plain.js';

/** The largest input `match` reads. */
export const MAX_INPUT_BYTES = 10 * 1024 * 1024;

/** Streams a CLI command writes to, and its exit code. */
export interface CliIO {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}


const candidateJson = (m: Candidate) => ({
  id: m.id,
  ref: m.ref,
  title: m.title,
  confidence: Math.round(m.confidence * 1000) / 1000,
  evidence: m.evidence.map((e) => ({ line: e.line, text: redact(e.text) })),
});

/**
 * The `--json` answer: exactly one object, evidence redacted; for 'applied', the entry tried and the lines
 * that show it, as the text prints them; `input` says how input that was not plain UTF-8 was read.
 */
export function matchJson(result: MatchResult, input?: string): string {
  return JSON.stringify({
    verdict: result.verdict,
    ...(input ? { input } : {}),
    ...(result.verdict === 'ask' ? { why: result.why } : {}),
    ...(result.verdict === 'no-match' ? { nearest: result.nearest, ...(result.note ? { note: result.note } : {}) } : {}),
    ...(result.verdict === 'no-match' && 'tried' in result ? { tried: candidateJson(result.tried) } : {}),
    matches: result.matches.map(candidateJson),
  });
}

function matchText(result: MatchResult): string {
  // Binary input never gets here: readInput refuses it (exit 2), as every command that reads input does.
  if (result.verdict === 'no-match' && 'tried' in result) {
    const { tried } = result;
    const why = result.note === 'declined'
      ? `no match (declined): you ask for another way than the guide's remedy for ${tried.id} (guide ${tried.ref}); the guide has no other, no fix proposed`
      : `no match (applied): the guide's remedy for ${tried.id} (guide ${tried.ref}) appears to be applied already and the error persists; the guide has nothing further, no fix proposed`;
    return [why, ...tried.evidence.map((e) => `  line ${e.line}: ${redact(e.text)}`), ...(result.nearest.length > 1 ? [`nearest entries (explain only): ${result.nearest.join(', ')}`] : [])].join('\n');
  }
  if (result.verdict === 'no-match') return `no match: no catalogued remedy for this${result.nearest.length ? `\nnearest entries (explain only): ${result.nearest.join(', ')}` : ''}`;
  const first = result.verdict !== 'ask' ? undefined : `ask (${result.why}): no fix proposed. ${askWhy[result.why]} ${result.matches.length > 1 ? 'Choose one of these:' : 'The entry it would be:'}`;
  const label = (i: number): string => (result.verdict === 'ask' ? `${i + 1}` : i === 0 ? 'match' : 'also possible');
  return [...(first ? [first] : []), ...result.matches
    .map((m, i) => [`${label(i)}: ${m.id} (guide ${m.ref}) ${m.title} — confidence ${pct(m.confidence)}`, ...m.evidence.map((e) => `  line ${e.line}: ${redact(e.text)}`)].join('\n'))]
    .join('\n');
}

/** `platform-medic match [--json] [FILE]`: exit 0 on a match, 1 on an ask or none, 2 on bad input (an unknown flag throws InputError). */
export async function runMatchCommand(args: string[], io: CliIO): Promise<number> {
  const flags = parseFlags('match', args, { '--json': 'switch' }, 1);
  const json = flags.has('--json');
  const file = flags.positional[0];
  // Typed at a terminal, with no file: say what it waits for, rather than wait in silence.
  if ((!file || file === '-') && (io.stdin as { isTTY?: boolean }).isTTY) io.stderr.write('platform-medic match: paste the error, then Ctrl-D on a line of its own (or give a FILE)\n');
  const input = await readInput(file, io.stdin, MAX_INPUT_BYTES, 'match reads up to 10 MB');
  if (!input.ok) {
    io.stderr.write(`platform-medic match: ${input.message}\n`);
    return 2;
  }
  // How the input was read, when not as plain UTF-8: on standard error, where it does not change the answer's lines.
  if (input.note) io.stderr.write(`platform-medic match: ${input.note}\n`);
  const result = match(input.text);
  io.stdout.write(`${json ? matchJson(result, input.note) : matchText(result)}\n`);
  return result.verdict === 'match' ? 0 : 1;
}

/** `platform-medic explain ID`: the entry, or the closest ids. */
export function runExplainCommand(args: string[], io: CliIO): number {
  const id = parseFlags('explain', args, {}, 1).positional[0]?.trim();
  if (!id) {
    io.stderr.write('usage: platform-medic explain ID   (see platform-medic list)\n');
    return 2;
  }
  const entry = findEntry(id);
  if (!entry) {
    io.stderr.write(`${plainText(unknownEntryView(id).summary)} See platform-medic list.\n`);
    return 2;
  }
  io.stdout.write(`${toText(explainView(entry, planFromCommandLine))}\n`);
  return 0;
}
