/**
 * Input a person gave on the command line that cannot be used: an unknown or incomplete argument, or a
 * file that cannot be read or written. The command line prints its message as one line and exits 2
 * (bad input), whichever command it was.
 */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

const reasons: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the name is too long',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EIO: 'an input/output error',
};

/** Why a file could not be read or written, in words, when `err` is one of Node's file-system errors. */
export function fileReason(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? reasons[code] : undefined;
}
