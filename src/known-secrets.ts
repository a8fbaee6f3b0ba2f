/**
 * Secret values this process holds right now: a revealed admin password, the values of a Secret the
 * worker read, the Slack credentials. A password is random text that no pattern recognises, so the
 * logger's last guard scrubs these by value wherever they appear in a log line, whatever put them there.
 */

/** Below this length a value is too plain to scrub without mangling ordinary words of every log line. */
const MIN_LENGTH = 6;
/** The newest values kept; a long-running worker reads the same secret's values over and over. */
const CAPACITY = 512;
const MARK = '[redacted]';

/** A bounded set of secret values, with the forms they take once embedded in JSON text. */
export class KnownSecrets {
  // Insertion order doubles as age: the oldest value is evicted first.
  private readonly values = new Map<string, readonly string[]>();

  /** Remembers secret values; the empty, the short and the already known cost nothing. */
  add(...values: (string | undefined)[]): void {
    for (const value of values) {
      if (value === undefined || value.length < MIN_LENGTH) continue;
      const known = this.values.get(value);
      this.values.delete(value);
      if (known) {
        // Seen again: it becomes the newest, and the forms to scrub stay as they are.
        this.values.set(value, known);
        continue;
      }
      this.sorted = undefined;
      // A value inside a JSON string in a message (a request body logged as text) is escaped once.
      const escaped = JSON.stringify(value).slice(1, -1);
      this.values.set(value, escaped === value ? [value] : [value, escaped]);
      if (this.values.size > CAPACITY) this.values.delete(this.values.keys().next().value!);
    }
  }

  /** Remembers every value of a Kubernetes Secret's data, base64 as stored and decoded. */
  addSecretData(data: Readonly<Record<string, string>>): void {
    for (const encoded of Object.values(data)) this.add(encoded, Buffer.from(encoded, 'base64').toString('utf8'));
  }

  /** The text with every known value replaced by `[redacted]`; longest first, so a value inside another goes with it. */
  scrub(text: string): string {
    if (this.values.size === 0) return text;
    let out = text;
    for (const form of this.forms()) if (out.includes(form)) out = out.split(form).join(MARK);
    return out;
  }

  /** All forms, longest first; rebuilt after the set changes. */
  private sorted: string[] | undefined;

  private forms(): string[] {
    this.sorted ??= [...this.values.values()].flat().sort((a, b) => b.length - a.length);
    return this.sorted;
  }
}

/** The process's registry: everything that reads or receives a secret adds it here. */
export const knownSecrets = new KnownSecrets();
