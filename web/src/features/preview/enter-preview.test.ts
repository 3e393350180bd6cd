import { expect, test } from "bun:test";
import { enterUrlFor } from "./enter-preview";

const ticket = { origin: "http://5173-abc12345.localhost:3000", enterUrl: "http://5173-abc12345.localhost:3000/__appbuilder/enter?ticket=t.k.n" };

test("a preview on the ticket's host loads through the enter URL, with its path, query and hash as next", () => {
  expect(enterUrlFor(ticket, "http://5173-abc12345.localhost:3000/?_refresh=7")).toBe(`${ticket.enterUrl}&next=%2F%3F_refresh%3D7`);
  expect(enterUrlFor(ticket, "http://5173-abc12345.localhost:3000/app/page?x=1#top")).toBe(`${ticket.enterUrl}&next=%2Fapp%2Fpage%3Fx%3D1%23top`);
});

test("a preview elsewhere (E2B's own host, an older sandbox) or without a ticket loads as it is", () => {
  expect(enterUrlFor(ticket, "https://5173-xyz.e2b.app/")).toBe("https://5173-xyz.e2b.app/");
  expect(enterUrlFor(ticket, "http://5173-other123.localhost:3000/")).toBe("http://5173-other123.localhost:3000/");
  expect(enterUrlFor({ origin: null, enterUrl: null }, "http://5173-abc12345.localhost:3000/")).toBe("http://5173-abc12345.localhost:3000/");
  expect(enterUrlFor(ticket, "not a url")).toBe("not a url");
});
