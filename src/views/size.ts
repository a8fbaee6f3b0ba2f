/** A size in words: KB below a megabyte (a small cap reads as `1 KB`, not `0.0 MB`), MB with one decimal above. */
export const sizeInWords = (bytes: number): string => (bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);
