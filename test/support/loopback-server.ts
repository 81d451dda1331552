// Starts a test's HTTP server on a free loopback port.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface LoopbackServer {
  origin: string;
  /** Drops open connections (keep-alive ones too) and stops listening. */
  close(): Promise<void>;
}

export async function listenOnLoopback(server: Server): Promise<LoopbackServer> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
