import { LogLevel, type Logger as BoltLogger } from '@slack/bolt';
import type { Logger } from 'pino';

/**
 * At debug level Slack's libraries log whole payloads as text: the Web API client every request body
 * and result ("http request body: {…}", so the text of the ephemeral that carries the admin password),
 * Socket Mode every envelope (a pasted message, verbatim), Bolt every ack body. None of that may reach
 * our log: from where a payload starts, the line keeps only its length. What is left is the library's
 * own words (which method, which step), still useful for debugging.
 */
export function withoutPayload(text: string): string {
  const starts = [text.indexOf('{'), text.search(/\[[{"]/), bodyStart(text)].filter((i) => i >= 0);
  if (starts.length === 0) return text;
  const at = Math.min(...starts);
  return `${text.slice(0, at)}[payload not logged: ${text.length - at} characters]`;
}

/** Bolt's acks log `(body: …)` with the body as plain text, not JSON. */
function bodyStart(text: string): number {
  const at = text.indexOf('(body: ');
  return at < 0 ? -1 : at + '(body: '.length;
}

/** A Bolt level as the pino level it reports (so a library can tell debug is on). */
function boltLevel(level: string): LogLevel {
  if (level === 'trace' || level === 'debug') return LogLevel.DEBUG;
  if (level === 'info') return LogLevel.INFO;
  if (level === 'warn') return LogLevel.WARN;
  return LogLevel.ERROR;
}

/**
 * The logger Bolt, its Web API client and its Socket Mode client write through: our pino logger, with
 * every payload cut out of their lines. The pino logger's own guard then scrubs known secrets and
 * secret-looking text from what is left.
 */
export function slackLibraryLogger(logger: Logger): BoltLogger {
  const log = logger.child({ component: 'bolt' });
  const line = (m: unknown[]) => withoutPayload(m.map(String).join(' '));
  // Bolt and the Web API client write several debug lines per request, some with a whole payload:
  // below the logger's level the line is not even put together (it was, for every request).
  return {
    debug: (...m: unknown[]) => {
      if (log.isLevelEnabled('debug')) log.debug(line(m));
    },
    info: (...m: unknown[]) => {
      if (log.isLevelEnabled('info')) log.info(line(m));
    },
    warn: (...m: unknown[]) => {
      if (log.isLevelEnabled('warn')) log.warn(line(m));
    },
    error: (...m: unknown[]) => log.error(line(m)),
    // The level is LOG_LEVEL's; a library asking to change it is ignored.
    setLevel: () => undefined,
    getLevel: () => boltLevel(log.level),
    setName: () => undefined,
  };
}
