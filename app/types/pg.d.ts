// The part of node-postgres the app calls directly (the migration runner).
// The driver itself comes with Prisma's PostgreSQL adapter.
declare module "pg" {
  class Client {
    constructor(config: { connectionString: string });
    connect(): Promise<void>;
    query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: Row[] }>;
    end(): Promise<void>;
  }
  const pg: { Client: typeof Client };
  export default pg;
}
