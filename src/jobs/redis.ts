import type { QueueEvents, Worker } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';
import { UserFacingError } from '../errors.js';

/**
 * Redis could not be used. `reachable` false: nothing answered (the message says how to start one);
 * true: a server answered but refused (a login, a database index). Never contains a password.
 */
export class RedisUnavailableError extends UserFacingError {
  constructor(
    readonly url: string,
    cause: string,
    readonly reachable = false,
    /** The whole message, when the cause needs more words than "refused". */
    message?: string,
  ) {
    const port = portOf(url);
    super(
      'redis-unavailable',
      message ??
        (reachable
          ? `Redis at ${url} answered but refused: ${cause}. Check REDIS_URL (password, database index).`
          : `Cannot reach Redis at ${url} (${cause}).\n` +
            'platform-medic keeps its queues in Redis. Start one there, for example:\n' +
            `  redis-server --daemonize yes --port ${port} --save "" --appendonly no   (Debian: apt-get install redis-server)\n` +
            'or point REDIS_URL at a running server.'),
    );
    this.name = 'RedisUnavailableError';
  }
}

function portOf(url: string): string {
  try {
    return new URL(url).port || '6379';
  } catch {
    return '6379';
  }
}

/**
 * A login the server refused: none given where one is required (NOAUTH), or a user and password it
 * does not accept (WRONGPASS; "invalid password" from Redis before 6). Undefined for other refusals.
 */
function refusedLogin(url: string, reply: string): RedisUnavailableError | undefined {
  const missing = reply.startsWith('NOAUTH');
  if (!missing && !/^(WRONGPASS|ERR invalid password)/.test(reply)) return undefined;
  const at = safeRedisUrl(url);
  const why = missing ? 'it requires a password, and REDIS_URL gives none' : 'it does not accept the user and password REDIS_URL gives';
  return new RedisUnavailableError(
    at,
    reply,
    true,
    `The Redis at ${at} answered but refused the login: ${why} (${reply.split(' ')[0]}).\n` +
      `${missing ? 'Give' : 'Correct'} the password in REDIS_URL: ${withLogin(url, '', 'PASSWORD')}, or ${withLogin(url, 'USER', 'PASSWORD')} for an ACL user ` +
      '(percent-encode any @ : / in it).',
  );
}

/**
 * Something accepted the connection but did not speak Redis's protocol: another server on that port
 * (PostgreSQL on 5432, a web server), or a Redis that expects TLS. Starting a Redis there would fail.
 */
function notRedis(url: string, what: string): RedisUnavailableError {
  const at = safeRedisUrl(url);
  let address = at;
  let plain = false;
  try {
    const u = new URL(url);
    address = `${u.hostname}:${portOf(url)}`;
    plain = u.protocol === 'redis:';
  } catch {
    // safeRedisUrl has said it is unparsable.
  }
  return new RedisUnavailableError(
    at,
    what,
    true,
    `Something answers at ${address}, but it is not Redis (${what}).\n` +
      `Check the port in REDIS_URL (${at}): Redis listens on 6379 unless configured otherwise` +
      (plain ? '; a Redis that expects TLS needs rediss://.' : '.'),
  );
}

/** REDIS_URL for a server that needs no password: without it, and one line that says so. */
function withoutPassword(url: string): RedisReached {
  const u = new URL(url);
  u.username = '';
  u.password = '';
  u.searchParams.delete('password');
  return {
    url: u.toString(),
    note: `REDIS_URL gives a password, but the Redis at ${u.toString()} requires none; it is not sent. Remove it from REDIS_URL, or set one on that Redis (requirepass).`,
  };
}

/** The URL with placeholders for its user and password, as an example to copy. */
function withLogin(url: string, user: string, password: string): string {
  try {
    const u = new URL(url);
    u.username = user;
    u.password = password;
    return u.toString();
  } catch {
    return `redis://${user}:${password}@HOST:PORT`;
  }
}

/** The URL without its password, for messages and logs. */
export function safeRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(an unparsable REDIS_URL)';
  }
}

/**
 * A connection for BullMQ. Workers need `maxRetriesPerRequest: null` (blocking commands); the bot's
 * queue connections fail fast instead, so a user hears "Redis is down" rather than waiting forever.
 */
export function connectRedis(url: string, purpose: 'worker' | 'client'): Redis {
  const options: RedisOptions =
    purpose === 'worker'
      ? { maxRetriesPerRequest: null, enableReadyCheck: true }
      : { maxRetriesPerRequest: 2, connectTimeout: 3_000 };
  return new Redis(url, options);
}

/**
 * Closes a BullMQ worker, waiting for its running jobs unless `force`, also while its connections are
 * reconnecting (Redis restarted, or away). Worker.close() interrupts the worker's wait for the next job by
 * disconnecting its blocking connection and awaiting that connection's 'end' (bullmq
 * dist/esm/classes/worker.js, Worker.whenCurrentJobsFinished → redis-connection.js,
 * RedisConnection.disconnect). ioredis never ends a connection between two attempts to reconnect: its
 * disconnect() clears the retry timer and has no socket left to close (ioredis built/Redis.js,
 * Redis.disconnect), so close() never returned and the process waited out its shutdown bound. BullMQ's
 * own reset of that connection first waits for it to be back (redis-queue-backend.js,
 * resetBlockedConnection; bullmq#4585, #4656); so does this. While Redis stays away, so does this wait:
 * the caller bounds it. Only a first close waits: reconnectBlocking() reconnects a connection that has
 * ended (RedisConnection.reconnect), and a second close would leave it open.
 */
export async function closeWorker(worker: Worker, force = false): Promise<void> {
  if (!force && !worker.closing) await worker.backend.reconnectBlocking();
  await worker.close(force);
}

/**
 * Closes a reader of a queue's events, also while its connection is reconnecting: QueueEvents.close()
 * disconnects that connection and awaits its 'end' the same way (bullmq queue-events.js,
 * QueueEvents.close → redis-queue-backend.js, RedisQueueBackend.disconnect → RedisConnection.disconnect).
 */
export async function closeQueueEvents(events: QueueEvents): Promise<void> {
  if (!events.closing) await events.backend.connection.reconnect();
  await events.close();
}

/**
 * A database index the server does not have. ioredis selects it after connecting and only emits the
 * refusal as an event, so a PING would still answer (from database 0) and every queue fail later: the
 * check selects it itself.
 */
async function wrongDatabase(client: Redis, url: string, index: number, refusal: string): Promise<RedisUnavailableError> {
  const at = safeRedisUrl(url);
  const count = await client
    .config('GET', 'databases')
    .then((r) => Number((r as string[])[1]))
    .catch(() => NaN);
  return new RedisUnavailableError(
    at,
    refusal,
    true,
    Number.isInteger(count) && count > 0
      ? `REDIS_URL selects database ${index}, but the Redis at ${at} has ${count} (its "databases" setting): use an index from 0 to ${count - 1}.`
      : `REDIS_URL selects database ${index}, which the Redis at ${at} does not have (${refusal}): use a smaller index, such as 0.`,
  );
}

/** What the check of Redis found: the URL to connect with, and a line to show once, if any. */
export interface RedisReached {
  /** REDIS_URL, without the password when the server requires none (see assertRedisReachable). */
  readonly url: string;
  /** Something worth one line at start (a password the server does not need), never containing it. */
  readonly note?: string;
}

/** AUTH answered that the server needs no password (Redis 6 and later; before 6). */
const needsNoPassword = /without any password configured for the default user|no password is set/;

/**
 * Connects once, logs in, pings and selects the URL's database, within a short time; throws
 * RedisUnavailableError otherwise. The probe logs in and selects itself (its client is told no
 * credentials, no database and no ready check): ioredis would send INFO, SELECT and AUTH on its own,
 * and print "[WARN] … a password was supplied" for a password the server does not need on every
 * connection it opens, a dozen times in a short session. Such a password comes back removed from the
 * URL, with one line saying so.
 */
export async function assertRedisReachable(url: string, timeoutMs = 2_000): Promise<RedisReached> {
  // disconnectTimeout: a server that is not Redis may never close its side; ioredis waits 2 s for it.
  const client = new Redis(url, { lazyConnect: true, enableReadyCheck: false, connectTimeout: timeoutMs, disconnectTimeout: 100, maxRetriesPerRequest: 0, retryStrategy: () => null });
  // As ioredis parsed them from the URL (its user, password, path or query), read before connecting.
  const { username, password } = client.options;
  const index = client.options.db ?? 0;
  Object.assign(client.options, { username: undefined, password: undefined, db: 0 });
  let socketError: { code?: string; message: string } | undefined;
  client.on('error', (e: { code?: string; message: string }) => (socketError ??= e));
  // connectTimeout ends once the connection is open: a server that then never answers (not Redis)
  // would keep the PING waiting for ever, so what follows has a time of its own.
  let connected = false;
  let silent = false;
  let answerTimer: NodeJS.Timeout | undefined;
  client.once('connect', () => {
    connected = true;
    answerTimer = setTimeout(() => ((silent = true), client.disconnect()), timeoutMs);
  });
  try {
    await client.connect();
    let reached: RedisReached = { url };
    if (password) {
      const unneeded = await (username ? client.auth(username, password) : client.auth(password)).then(
        () => false,
        (err: Error) => (err.name === 'ReplyError' && needsNoPassword.test(err.message) ? true : Promise.reject(err)),
      );
      if (unneeded) reached = withoutPassword(url);
    }
    await client.ping();
    if (index !== 0) {
      const refusal = await client.select(index).then(
        () => undefined,
        (err: Error) => (err.name === 'ReplyError' ? err.message.split('\n')[0]! : Promise.reject(err)),
      );
      if (refusal) throw await wrongDatabase(client, url, index, refusal);
    }
    return reached;
  } catch (err) {
    if (err instanceof RedisUnavailableError) throw err;
    // A reply from the server (WRONGPASS, NOAUTH, ERR DB index…) means it is there but refuses us,
    // also one that ioredis reported only as an 'error' event (as its ready check's NOAUTH once was).
    const reply = [err, socketError].find((e) => (e as Error | undefined)?.name === 'ReplyError') as Error | undefined;
    if (reply) {
      const line = reply.message.split('\n')[0]!;
      throw refusedLogin(url, line) ?? new RedisUnavailableError(safeRedisUrl(url), line, true);
    }
    if (silent) throw notRedis(url, `it did not answer within ${timeoutMs / 1000} s`);
    if ([err, socketError].some((e) => (e as Error | undefined)?.name === 'ParserError')) throw notRedis(url, "its answer is not in Redis's protocol");
    if (connected) throw notRedis(url, 'it closed the connection without an answer');
    const cause = (err as { code?: string }).code ?? socketError?.code ?? socketError?.message ?? (err as Error).message;
    throw new RedisUnavailableError(safeRedisUrl(url), cause);
  } finally {
    clearTimeout(answerTimer);
    client.disconnect();
  }
}
