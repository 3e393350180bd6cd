/**
 * Compile-time proof that the typed client is held to the server's routes: each `@ts-expect-error` line is a
 * call the server does not accept, so `tsc` fails the day one of them compiles (or the client turns `any`).
 * The calls above them must compile, so a client on which every call fails would fail here too. Never run;
 * endpoints.type-check.test.ts compiles wrong calls in a test as well.
 */
import type { ApiClient } from "./endpoints";

export function typedCalls(client: ApiClient) {
  // Calls the server accepts.
  void client.projects.$post({ json: { name: "Todo" } });
  void client.projects[":id"].$get({ param: { id: "p1" } });
  void client.files[":fileId"].content.$patch({ param: { fileId: "f1" }, json: { content: "x" } });
  void client.projects[":id"].versions.$get({ param: { id: "p1" }, query: { limit: "10" } });
  void client.upload.image.$post({ form: { file: new File([], "a.png"), projectId: "p1" } });

  // @ts-expect-error a path the server does not have
  void client.projects[":id"].nothing.$get({ param: { id: "p1" } });
  // @ts-expect-error a method the path does not answer
  void client.projects[":id"].$put({ param: { id: "p1" } });
  // @ts-expect-error a parameter the route does not name
  void client.projects[":id"].$get({ param: { projectId: "p1" } });
  // @ts-expect-error a parameter left out
  void client.files[":projectId"][":fileId"].$get({ param: { projectId: "p1" } });
  // @ts-expect-error a body without the field the route requires
  void client.projects.$post({ json: { title: "Todo" } });
  // @ts-expect-error a body field of the wrong type
  void client.files[":fileId"].content.$patch({ param: { fileId: "f1" }, json: { content: 42 } });
  // @ts-expect-error a JSON body where the route takes none of that shape
  void client.sandbox[":projectId"].shell.$post({ param: { projectId: "p1" }, json: { cmd: "ls" } });
  // @ts-expect-error a multipart field of the wrong kind
  void client.upload.image.$post({ form: { file: "a.png", projectId: "p1" } });
}
