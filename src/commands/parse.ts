/** A `/platform` command (or a line typed in the terminal), parsed. */
export type PlatformCommand =
  | { kind: 'help' }
  | { kind: 'list' }
  | { kind: 'fix'; entryId: string; cluster?: string }
  | { kind: 'usage'; message: string }
  | { kind: 'unknown'; word: string };

/** Parses the text after `/platform`. Never throws: bad input becomes `usage` or `unknown`. */
export function parseCommand(text: string): PlatformCommand {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const [verb, ...rest] = words;
  switch ((verb ?? 'help').toLowerCase()) {
    case 'help':
      return { kind: 'help' };
    case 'list':
      return { kind: 'list' };
    case 'fix': {
      const [entryId, cluster, ...extra] = rest;
      if (!entryId) return { kind: 'usage', message: 'Which remedy? Usage: `/platform fix <id> [cluster]`, e.g. `/platform fix build-logs`. See `/platform list`.' };
      if (extra.length > 0) return { kind: 'usage', message: `Too many words after \`fix\`: usage is \`/platform fix <id> [cluster]\`.` };
      return { kind: 'fix', entryId: entryId.toLowerCase(), ...(cluster ? { cluster } : {}) };
    }
    default:
      return { kind: 'unknown', word: verb!.slice(0, 40) };
  }
}
