/** A file shared in Slack, as the Events API and files.info describe it. */
export interface SharedFile {
  readonly id: string;
  readonly name?: string;
  readonly mimetype?: string;
  readonly filetype?: string;
  readonly size?: number;
  readonly url_private_download?: string;
  readonly url_private?: string;
}

/** What reading a shared file gave: its text, or a sentence saying why not. */
export type FileText = { ok: true; name: string; text: string } | { ok: false; name: string; reason: string };

const textTypes = new Set(['text', 'plain', 'log', 'json', 'yaml', 'yml', 'javascript', 'typescript', 'python', 'go', 'java', 'shell', 'markdown', 'xml', 'csv', 'diff', 'ini', 'toml', 'properties', 'sql', 'dockerfile', 'html']);

function isText(f: SharedFile): boolean {
  if (f.mimetype?.startsWith('text/')) return true;
  if (f.mimetype && /json|yaml|xml|x-sh|javascript/.test(f.mimetype)) return true;
  return f.filetype !== undefined && textTypes.has(f.filetype);
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

/**
 * Downloads a shared text file or snippet with the bot token, up to `maxBytes`. Slack answers an
 * unauthorised download with a sign-in page, not an error, so an HTML answer is refused too.
 */
export async function readSharedFile(file: SharedFile, botToken: string, maxBytes: number): Promise<FileText> {
  const name = file.name ?? file.id;
  if (!isText(file)) return { ok: false, name, reason: `${name} is not a text file (${file.mimetype ?? file.filetype ?? 'unknown type'}); paste the error as text or share a .log/.txt file.` };
  if ((file.size ?? 0) > maxBytes) return { ok: false, name, reason: `${name} is ${mb(file.size!)}; I read files up to ${mb(maxBytes)}. Share the part around the error.` };
  const url = file.url_private_download ?? file.url_private;
  if (!url) return { ok: false, name, reason: `Slack gave no download address for ${name}.` };
  let res: Response;
  try {
    res = await fetch(url, { headers: { authorization: `Bearer ${botToken}` }, signal: AbortSignal.timeout(15_000) });
  } catch (err) {
    return { ok: false, name, reason: `Could not download ${name} (${(err as Error).name}).` };
  }
  if (!res.ok || /text\/html/.test(res.headers.get('content-type') ?? '')) {
    return { ok: false, name, reason: `Slack did not let me download ${name} (does the app have the files:read scope?).` };
  }
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > maxBytes) return { ok: false, name, reason: `${name} is ${mb(declared)}; I read files up to ${mb(maxBytes)}.` };
  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.length > maxBytes) return { ok: false, name, reason: `${name} is larger than ${mb(maxBytes)}; I read files up to that size.` };
  return { ok: true, name, text: bytes.toString('utf8') };
}
