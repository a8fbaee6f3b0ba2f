import { decodeText } from '../matching/decode.js';
import { sizeInWords, sizeOver } from '../views/size.js';

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

/**
 * What reading a shared file gave: its text (with a sentence saying how, when it was not plain UTF-8:
 * decode.ts), or a sentence saying why not.
 */
export type FileText = { ok: true; name: string; text: string; note?: string } | { ok: false; name: string; reason: string };

const textTypes = new Set(['text', 'plain', 'log', 'json', 'yaml', 'yml', 'javascript', 'typescript', 'python', 'go', 'java', 'shell', 'markdown', 'xml', 'csv', 'diff', 'ini', 'toml', 'properties', 'sql', 'dockerfile', 'html']);

function isText(f: SharedFile): boolean {
  if (f.mimetype?.startsWith('text/')) return true;
  if (f.mimetype && /json|yaml|xml|x-sh|javascript/.test(f.mimetype)) return true;
  return f.filetype !== undefined && textTypes.has(f.filetype);
}


/** What downloading a shared file needs: the bot token, the size cap, and the configured Web API address. */
export interface DownloadOptions {
  readonly botToken: string;
  readonly maxBytes: number;
  /** SLACK_API_URL: a proxy of Slack (or the fake Slack of the tests), trusted like Slack's own hosts. */
  readonly apiUrl?: string | undefined;
}

/** Slack's file service redirects at most once or twice; more is a loop. */
const maxRedirects = 3;

/** Slack's file hosts: https on the standard port, no credentials, files.slack.com or another host of slack.com. */
function isSlackFileHost(url: URL): boolean {
  if (url.protocol !== 'https:' || url.port !== '' || url.username || url.password) return false;
  return url.hostname === 'files.slack.com' || url.hostname.endsWith('.slack.com');
}

function isConfiguredApi(url: URL, apiUrl: string | undefined): boolean {
  if (!apiUrl || url.username || url.password) return false;
  try {
    return new URL(apiUrl).origin === url.origin;
  } catch {
    return false;
  }
}

/**
 * Where a download may go: its first address (`from` undefined) or a redirect's Location, resolved
 * against the address that answered it. Only Slack's file hosts and the configured API address are
 * allowed; the token goes along only while the host stays the one that had it.
 */
export function downloadHop(from: URL | undefined, location: string, apiUrl: string | undefined): { url: URL; withToken: boolean } | { refused: string } {
  let url: URL;
  try {
    url = new URL(location, from);
  } catch {
    return { refused: 'an address that is not a URL' };
  }
  if (!isSlackFileHost(url) && !isConfiguredApi(url, apiUrl)) return { refused: url.host || url.protocol };
  return { url, withToken: from === undefined || from.host === url.host };
}

/**
 * Downloads a shared text file or snippet with the bot token, up to `maxBytes`, from Slack's file
 * hosts only: an address elsewhere, or a redirect elsewhere, is refused without a request, so the
 * token never leaves Slack. Slack answers an unauthorised download with a sign-in page, not an
 * error, so an HTML answer is refused too.
 */
export async function readSharedFile(file: SharedFile, options: DownloadOptions): Promise<FileText> {
  const { botToken, maxBytes, apiUrl } = options;
  const name = file.name ?? file.id;
  if (!isText(file)) return { ok: false, name, reason: `${name} is not a text file (${file.mimetype ?? file.filetype ?? 'unknown type'}); paste the error as text or share a .log/.txt file.` };
  if ((file.size ?? 0) > maxBytes) return { ok: false, name, reason: `${name} is ${sizeOver(file.size!, maxBytes)}; I read files up to ${sizeInWords(maxBytes)}. Share the part around the error.` };
  const address = file.url_private_download ?? file.url_private;
  if (!address) return { ok: false, name, reason: `Slack gave no download address for ${name}.` };
  let hop = downloadHop(undefined, address, apiUrl);
  if ('refused' in hop) return { ok: false, name, reason: `I did not download ${name}: its address (${hop.refused}) is not one of Slack's file hosts.` };
  const signal = AbortSignal.timeout(15_000);
  let withToken = true;
  let res: Response;
  for (let redirects = 0; ; redirects++) {
    try {
      res = await fetch(hop.url, { redirect: 'manual', headers: withToken ? { authorization: `Bearer ${botToken}` } : {}, signal });
    } catch (err) {
      return { ok: false, name, reason: `Could not download ${name} (${(err as Error).name}).` };
    }
    const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
    if (location === null) break;
    await res.body?.cancel();
    if (redirects >= maxRedirects) return { ok: false, name, reason: `Could not download ${name}: Slack redirected the download too many times.` };
    const next = downloadHop(hop.url, location, apiUrl);
    if ('refused' in next) return { ok: false, name, reason: `I did not download ${name}: the download was redirected to ${next.refused}, which is not one of Slack's file hosts.` };
    withToken &&= next.withToken;
    hop = next;
  }
  if (!res.ok || /text\/html/.test(res.headers.get('content-type') ?? '')) {
    return { ok: false, name, reason: `Slack did not let me download ${name} (does the app have the files:read scope?).` };
  }
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > maxBytes) return { ok: false, name, reason: `${name} is ${sizeOver(declared, maxBytes)}; I read files up to ${sizeInWords(maxBytes)}.` };
  const bytes = await readCapped(res, maxBytes);
  if (!bytes) return { ok: false, name, reason: `${name} is larger than ${sizeInWords(maxBytes)}; I read files up to that size.` };
  const { text, note } = decodeText(bytes);
  return { ok: true, name, text, ...(note ? { note: `${name}: ${note}` } : {}) };
}

/**
 * Reads the files shared with one message in turn, all of them together up to `maxBytes`: a message is one
 * paste, whatever the number of its files. Read each up to the limit, ten files of a message were held and
 * matched at once, ten times the limit (100 MB under a 256 MB heap). A file the files before it leave no
 * room for is not downloaded, and named.
 */
export async function readSharedFiles(files: readonly SharedFile[], options: DownloadOptions): Promise<FileText[]> {
  const texts: FileText[] = [];
  let left = options.maxBytes;
  for (const file of files) {
    const name = file.name ?? file.id;
    if (left < options.maxBytes && (file.size === undefined || file.size > left) && isText(file)) {
      texts.push({ ok: false, name, reason: `${name} was not read: I read the files of one message up to ${sizeInWords(options.maxBytes)} together. Share it in a message of its own.` });
      continue;
    }
    const read = await readSharedFile(file, { ...options, maxBytes: left });
    if (read.ok) left -= Buffer.byteLength(read.text);
    texts.push(read);
  }
  return texts;
}

/**
 * The body, or undefined as soon as it grows past `maxBytes`: the download stops there, so a file
 * sent without a Content-Length (chunked) is never held whole in memory before it is refused.
 */
async function readCapped(res: Response, maxBytes: number): Promise<Buffer | undefined> {
  if (!res.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks, size);
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
}
