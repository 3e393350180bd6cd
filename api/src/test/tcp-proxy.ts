/**
 * A TCP proxy on a loopback port that tests can cut and restore, to show how the app behaves while a
 * dependency (the database) is unreachable and after it comes back.
 */
import type { Socket } from "bun";

export type CuttableProxy = { port: number; cut(): void; restore(): void; stop(): void };

export function startCuttableProxy(target: { hostname: string; port: number } | { unix: string }): CuttableProxy {
  let open = true;
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
        if (client.data.upstream) client.data.upstream.write(chunk);
        else client.data.pending.push(new Uint8Array(chunk));
      },
      close(client) {
        live.delete(client);
        client.data?.upstream?.end();
      },
    },
  });
  const relay = (client: Socket<{ upstream?: Socket<unknown>; pending: Uint8Array[] }>) => ({
    data: (_: Socket<unknown>, chunk: Uint8Array) => void client.write(chunk),
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
    stop() {
      this.cut();
      server.stop(true);
    },
  };
}
