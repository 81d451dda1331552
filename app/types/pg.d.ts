// The part of node-postgres the app calls directly (the migration runner).
// The driver itself comes with Prisma's PostgreSQL adapter.
declare module "pg" {
  interface Client {
    connect(): Promise<void>;
    query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: Row[] }>;
    end(): Promise<void>;
  }
  const pg: { Client: new (config: { connectionString: string }) => Client };
  export default pg;
}
