import pg from "pg";

type Client = InstanceType<typeof pg.Client>;

// PostgreSQL's LISTEN/NOTIFY: a signal from one process to the others that
// use the same database, carried by the database itself, so it reaches
// processes on other machines too. A notification is a hint, never a
// record: a listener that was not connected misses it.

export interface ChannelLogger {
  warn(details: object, message: string): void;
}

export interface Listening {
  close(): Promise<void>;
}

/** The first wait before a lost listening connection is opened again; it doubles up to RECONNECT_MAX_MS. */
const RECONNECT_MIN_MS = 1_000;
const RECONNECT_MAX_MS = 30_000;

/**
 * Calls `onSignal` for each notification on `channel`, on a connection of
 * its own, opened again (with backoff) when it is lost.
 */
export function listenChannel(databaseUrl: string, channel: string, onSignal: () => void, logger: ChannelLogger): Listening {
  let client: Client | undefined;
  let closed = false;
  let retryMs = RECONNECT_MIN_MS;
  let retry: ReturnType<typeof setTimeout> | undefined;

  function lost(error: unknown, connection: Client): void {
    if (closed || client !== connection) return;
    client = undefined;
    void connection.end().catch(() => undefined);
    logger.warn({ err: error, channel, retryInMs: retryMs }, "lost the database connection that listens for signals; it is opened again");
    retry = setTimeout(connect, retryMs);
    retry.unref();
    retryMs = Math.min(retryMs * 2, RECONNECT_MAX_MS);
  }

  function connect(): void {
    if (closed) return;
    const connection = new pg.Client({ connectionString: databaseUrl });
    client = connection;
    connection.on("notification", (message) => message.channel === channel && onSignal());
    connection.on("error", (error) => lost(error, connection));
    connection
      .connect()
      .then(() => connection.query(`LISTEN ${pg.escapeIdentifier(channel)}`))
      .then(() => (retryMs = RECONNECT_MIN_MS))
      .catch((error: unknown) => lost(error, connection));
  }

  connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
      client = undefined;
    },
  };
}
