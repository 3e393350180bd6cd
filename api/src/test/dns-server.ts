/**
 * A DNS server on loopback for the own-domain tests (the `dns2` package, UDP only): it answers TXT questions
 * from a map the test fills, and nothing for any other name. Point the app at it with `DNS_SERVERS`.
 *
 * @example
 * const dns = await startDnsServer();
 * dns.txt.set("_appbuilder.shop.example.com", ["appbuilder-verify=…"]);
 * testApp({ env: { DNS_SERVERS: dns.address } });
 */
import dns2 from "dns2";

export type TestDnsServer = { address: string; txt: Map<string, string[]>; questions: string[]; close(): Promise<void> };

export async function startDnsServer(): Promise<TestDnsServer> {
  const { Packet } = dns2;
  const txt = new Map<string, string[]>();
  const questions: string[] = [];
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      for (const q of request.questions) {
        questions.push(q.name);
        if (q.type !== Packet.TYPE.TXT) continue;
        for (const data of txt.get(q.name.toLowerCase()) ?? []) {
          // dns2's typings want a Resource instance; its encoder takes the plain record, as its README shows.
          response.answers.push({ name: q.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 1, data } as unknown as (typeof response.answers)[number]);
        }
      }
      send(response);
    },
  });
  await server.listen({ udp: { port: 0, address: "127.0.0.1" } });
  const port = (server.addresses() as { udp: { port: number } }).udp.port;
  return { address: `127.0.0.1:${port}`, txt, questions, close: () => server.close() };
}
