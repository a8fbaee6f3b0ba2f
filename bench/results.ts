import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** Replaces (or appends) one `## <title>` section of a results file, leaving the others as they are. */
export function writeSection(path: string, title: string, body: string): void {
  const heading = `## ${title}`;
  const old = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmark results\n';
  const lines = old.split('\n');
  const start = lines.findIndex((l) => l.trim() === heading);
  const section = [heading, '', ...body.trimEnd().split('\n'), ''];
  if (start < 0) {
    writeFileSync(path, `${old.trimEnd()}\n\n${section.join('\n')}`);
    return;
  }
  let end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  if (end < 0) end = lines.length;
  writeFileSync(path, [...lines.slice(0, start), ...section, ...lines.slice(end)].join('\n').trimEnd() + '\n');
}
