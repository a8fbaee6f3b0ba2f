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
 * refusal as an event, so a PING still answers (from database 0); every queue would fail later.
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

/** Connects once, pings and selects the URL's database, within a short time; throws RedisUnavailableError otherwise. */
export async function assertRedisReachable(url: string, timeoutMs = 2_000): Promise<void> {
  // disconnectTimeout: a server that is not Redis may never close its side; ioredis waits 2 s for it.
  const client = new Redis(url, { lazyConnect: true, connectTimeout: timeoutMs, disconnectTimeout: 100, maxRetriesPerRequest: 0, retryStrategy: () => null });
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
  const index = client.options.db ?? 0;
  try {
    await client.connect();
    await client.ping();
    if (index !== 0) {
      const refusal = await client.select(index).then(
        () => undefined,
        (err: Error) => (err.name === 'ReplyError' ? err.message.split('\n')[0]! : Promise.reject(err)),
      );
      if (refusal) throw await wrongDatabase(client, url, index, refusal);
    }
  } catch (err) {
    if (err instanceof RedisUnavailableError) throw err;
    // A reply from the server (WRONGPASS, NOAUTH, ERR DB index…) means it is there but refuses us. A
    // refused login reaches connect() only as "Connection is closed.": ioredis emits the reply as an
    // 'error' event (its ready check failed) and then closes, so the event's error decides too.
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
