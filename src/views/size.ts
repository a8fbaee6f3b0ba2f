/** A size in words: KB below a megabyte (a small cap reads as `1 KB`, not `0.0 MB`), MB with one decimal above. */
export const sizeInWords = (bytes: number): string => (bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

/**
 * A size over a limit, in words: as sizeInWords, or in bytes when the words of both would read the same
 * ("10.0 MB" over a 10 MB limit), so the answer never says a size is over a limit it seems to equal.
 */
export function sizeOver(bytes: number, maxBytes: number): string {
  return sizeInWords(bytes) === sizeInWords(maxBytes) ? `${bytes.toLocaleString('en-US')} bytes, over the ${maxBytes.toLocaleString('en-US')}` : sizeInWords(bytes);
}
