import { parseValuesCommand, type ValuesCommand } from '../values/parse-command.js';

/** A `/platform` command (or a line typed in the terminal), parsed. */
export type PlatformCommand =
  | { kind: 'help' }
  | { kind: 'list' }
  | { kind: 'fix'; entryId: string; cluster?: string; params: Record<string, string> }
  | { kind: 'explain'; entryId: string }
  | { kind: 'match'; text: string }
  | ValuesCommand
  | { kind: 'audit'; count: number }
  | { kind: 'doctor'; cluster?: string }
  | { kind: 'status'; cluster?: string }
  /** A remedy cancelled by its id, from wherever the person is (its thread may be where they cannot click). */
  | { kind: 'cancel'; requestId: string }
  /** `quotes`: the message quotes what the person typed, so its ticked pieces are shown as code (escaped), not as our commands. */
  | { kind: 'usage'; message: string; quotes?: true }
  | { kind: 'unknown'; word: string };

const usage = {
  fix: 'Which remedy? Usage: `/platform fix <id> [cluster] [name=value …]`, e.g. `/platform fix build-logs`. See `/platform list`.',
  explain: 'Which entry? Usage: `/platform explain <id>`, e.g. `/platform explain build-logs`.',
  match: 'Paste the error after it: `/platform match <error text>`.',
  cancel: "Which remedy? Usage: `/platform cancel <id>`, with the remedy's id (r and ten letters or digits) from its thread or from `/platform status`.",
};

/** The words a command starts with (a mistyped one is named with the nearest of these). */
export const COMMAND_WORDS = ['help', 'list', 'audit', 'doctor', 'status', 'explain', 'match', 'values', 'fix', 'cancel'] as const;

/** Parses the text after `/platform`. Never throws: bad input becomes `usage` or `unknown`. */
export function parseCommand(text: string): PlatformCommand {
  const trimmed = text.trim();
  const verb = (/^\S+/.exec(trimmed)?.[0] ?? 'help').toLowerCase();
  const rest = trimmed.slice(verb.length).trim();
  const words = rest.split(/\s+/).filter(Boolean);
  switch (verb) {
    case 'help':
      return { kind: 'help' };
    case 'list':
      return words.length === 0 ? { kind: 'list' } : { kind: 'usage', message: 'Usage: `/platform list`, with nothing after it: every remedy of the catalogue.' };
    case 'audit': {
      const n = words[0] === undefined ? 20 : Number(words[0]);
      if (!Number.isInteger(n) || n < 1 || n > 100) return { kind: 'usage', message: 'Usage: `/platform audit [n]`, n from 1 to 100 (default 20).' };
      return { kind: 'audit', count: n };
    }
    case 'doctor':
      if (words.length > 1) return { kind: 'usage', message: 'Usage: `/platform doctor [cluster]`: every symptom of the guide, checked on the cluster (read-only).' };
      return { kind: 'doctor', ...(words[0] ? { cluster: words[0] } : {}) };
    case 'status':
      if (words.length > 1) return { kind: 'usage', message: "Usage: `/platform status [cluster]`: the remedies open and the doctor's last results." };
      return { kind: 'status', ...(words[0] ? { cluster: words[0] } : {}) };
    case 'cancel':
      return words.length === 1 ? { kind: 'cancel', requestId: words[0]! } : { kind: 'usage', message: usage.cancel };
    case 'explain':
      return words.length === 1 ? { kind: 'explain', entryId: words[0]!.toLowerCase() } : { kind: 'usage', message: usage.explain };
    case 'match':
      return rest ? { kind: 'match', text: rest } : { kind: 'usage', message: usage.match };
    case 'values':
      return parseValuesCommand(rest);
    case 'fix': {
      const [entryId, ...more] = words;
      if (!entryId) return { kind: 'usage', message: usage.fix };
      // Without a prototype: `__proto__=1` is then a setting like any other (refused as unknown), not an assignment that does nothing.
      const params = Object.create(null) as Record<string, string>;
      const plain: string[] = [];
      for (const w of more) {
        const eq = w.indexOf('=');
        if (eq <= 0) {
          plain.push(w);
          continue;
        }
        const [name, value] = [w.slice(0, eq), w.slice(eq + 1)];
        // A setting given two values would plan the last one, unseen (another database dropped than the one read first).
        const before = Object.hasOwn(params, name) ? params[name] : undefined;
        if (before !== undefined && before !== value) {
          return { kind: 'usage', quotes: true, message: `\`${name.slice(0, 40)}\` is given twice (\`${before.slice(0, 60)}\`, then \`${value.slice(0, 60)}\`); give it once.` };
        }
        params[name] = value;
      }
      // People used to the command line type the cluster as a flag: name the flag rather than count the words.
      const flag = plain.find((w) => w.startsWith('--'));
      if (flag) return { kind: 'usage', quotes: true, message: `\`fix\` takes no flags (\`${flag.slice(0, 40)}\`): the cluster is the word after the id, as in \`/platform fix ${entryId.slice(0, 40)} prod\`, and settings are name=value.` };
      if (plain.length > 1) return { kind: 'usage', quotes: true, message: `Too many words after \`fix ${entryId.slice(0, 40)}\`: usage is \`/platform fix <id> [cluster] [name=value …]\`.` };
      return { kind: 'fix', entryId: entryId.toLowerCase(), ...(plain[0] ? { cluster: plain[0] } : {}), params };
    }
    default:
      return { kind: 'unknown', word: verb.slice(0, 40) };
  }
}
