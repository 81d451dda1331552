// The part of node-postgres the app calls directly (the migration runner,
// the worker's plain SQL, the listening of pg-channel.server.ts). The driver itself comes with Prisma's PostgreSQL
// adapter.
declare module "pg" {
  interface QueryResult<Row> {
    rows: Row[];
    rowCount: number | null;
  }
  interface Notification {
    channel: string;
    payload?: string;
  }
  interface Client {
    connect(): Promise<void>;
    query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<QueryResult<Row>>;
    end(): Promise<void>;
    on(event: "notification", listener: (message: Notification) => void): this;
    on(event: "error", listener: (error: Error) => void): this;
  }
  interface PoolClient {
    query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<QueryResult<Row>>;
    query<Row = Record<string, unknown>>(query: PreparedQuery): Promise<QueryResult<Row>>;
    release(): void;
  }
  /** A statement with a name: the connection parses it once, then only binds and runs it. */
  interface PreparedQuery {
    name: string;
    text: string;
    values?: unknown[];
  }
  type TypeParser = (oid: number, format?: "text" | "binary") => (text: string) => unknown;
  interface Pool {
    connect(): Promise<PoolClient>;
    query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<QueryResult<Row>>;
    query<Row = Record<string, unknown>>(query: PreparedQuery): Promise<QueryResult<Row>>;
    end(): Promise<void>;
    /** An idle connection's failure (the pool has let it go). */
    on(event: "error", listener: (error: Error) => void): this;
  }
  interface PoolConfig {
    connectionString: string;
    /** Server settings for each connection, as `-c name=value`. */
    options?: string;
    max?: number;
    allowExitOnIdle?: boolean;
    /** How long a connection may sit idle before the pool closes it; 0: never (pg's default is 10 s). */
    idleTimeoutMillis?: number;
    /** The parsers of this pool's values, instead of the driver's global ones. */
    types?: { getTypeParser: TypeParser };
  }
  const pg: {
    Client: new (config: { connectionString: string }) => Client;
    Pool: new (config: PoolConfig) => Pool;
    types: { getTypeParser: TypeParser };
    escapeIdentifier(name: string): string;
  };
  export default pg;
}
