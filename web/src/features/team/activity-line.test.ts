import { describe, expect, test } from "bun:test";
import { activityLine } from "./activity-line";

const ana = { name: "Ana", email: "ana@example.com" };

describe("activityLine", () => {
  test("says who did what, with the detail that matters", () => {
    expect(activityLine({ kind: "member.invited", detail: { email: "bo@example.com", role: "editor" }, actor: ana })).toBe(
      "Ana invited bo@example.com as editor",
    );
    expect(activityLine({ kind: "member.role_changed", detail: { email: "bo@example.com", role: "viewer" }, actor: ana })).toBe(
      "Ana made bo@example.com a viewer",
    );
    expect(activityLine({ kind: "secret.set", detail: { name: "API_KEY" }, actor: ana })).toBe("Ana set the secret API_KEY");
    expect(activityLine({ kind: "domain.verified", detail: { domain: "shop.example.com" }, actor: ana })).toBe("Ana verified the domain shop.example.com");
    expect(activityLine({ kind: "message.sent", detail: {}, actor: { name: null, email: "bo@example.com" } })).toBe("bo sent a message");
  });

  test("an unknown kind reads as its name; a deleted user is still someone", () => {
    expect(activityLine({ kind: "project.renamed", detail: {}, actor: null })).toBe("Someone (no longer a user) project renamed");
  });
});
