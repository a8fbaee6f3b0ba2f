import { pino, type Logger } from 'pino';

/**
 * Paths that may carry a secret in anything we log. Secrets never reach a log: these are censored
 * even if a bug passes them.
 */
const redact = [
  'token', '*.token', 'botToken', '*.botToken', 'appToken', '*.appToken', 'signingSecret', '*.signingSecret',
  'password', '*.password', 'authorization', '*.authorization', 'headers.authorization', 'req.headers.authorization',
  'headers["x-slack-signature"]',
];

/** The process's logger: JSON lines to stdout (or to `destination`), secrets censored. */
export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino({ level, redact: { paths: redact, censor: '[redacted]' }, base: { app: 'platform-medic' } }, destination ?? process.stdout);
}
