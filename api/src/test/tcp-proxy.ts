/**
 * A TCP proxy on a loopback port that tests can cut and restore, to show how the app behaves while a
 * dependency (the database) is unreachable and after it comes back. `stall()` keeps every connection open
 * but holds the bytes (a partitioned or frozen server); `resume()` delivers what was held.
 */
import type { Socket } from "bun";

export type CuttableProxy = { port: number; cut(): void; restore(): void; stall(): void; resume(): void; stop(): void };

export function startCuttableProxy(target: { hostname: string; port: number } | { unix: string }): CuttableProxy {
  let open = true;
  let stalled = false;
  const held: (() => void)[] = [];
  const send = (write: () => void) => (stalled ? held.push(write) : write());
  const live = new Set<Socket<{ upstream?: Socket<unknown>; pending: Uint8Array[] }>>();
  const server = Bun.listen<{ upstream?: Socket<unknown>; pending: Uint8Array[] }>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(client) {
        if (!open) return void client.end();
        client.data = { pending: [] };
        live.add(client);
        const connect = "unix" in target ? Bun.connect({ unix: target.unix, socket: relay(client) }) : Bun.connect({ ...target, socket: relay(client) });
        connect.then(
          (upstream) => {
            client.data.upstream = upstream;
            for (const chunk of client.data.pending) upstream.write(chunk);
            client.data.pending = [];
          },
          () => client.end(),
        );
      },
      data(client, chunk) {
        const copy = new Uint8Array(chunk);
        send(() => {
          if (client.data.upstream) client.data.upstream.write(copy);
          else client.data.pending.push(copy);
        });
      },
      close(client) {
        live.delete(client);
        client.data?.upstream?.end();
      },
    },
  });
  const relay = (client: Socket<{ upstream?: Socket<unknown>; pending: Uint8Array[] }>) => ({
    data: (_: Socket<unknown>, chunk: Uint8Array) => {
      const copy = new Uint8Array(chunk);
      send(() => void client.write(copy));
    },
    close: () => void client.end(),
    error: () => void client.end(),
  });
  return {
    port: server.port,
    cut() {
      open = false;
      for (const client of live) {
        client.data.upstream?.end();
        client.end();
      }
      live.clear();
    },
    restore() {
      open = true;
    },
    stall() {
      stalled = true;
    },
    resume() {
      stalled = false;
      for (const write of held.splice(0)) write();
    },
    stop() {
      this.cut();
      server.stop(true);
    },
  };
}
