import { describe, expect, test } from "bun:test";
import { configFailure as failure } from "../../test/config-failure";
import { loadConfig as load } from "./index";

describe("admin configuration", () => {
  test("ADMIN_EMAILS: none by default; a comma list is trimmed, lower-cased and de-duplicated", () => {
    expect(load({}).adminEmails).toEqual([]);
    expect(load({ ADMIN_EMAILS: " Ops@Example.com, me@example.com,,ops@example.COM " }).adminEmails).toEqual(["ops@example.com", "me@example.com"]);
  });

  test("something that is not a list of e-mail addresses is refused, naming the variable", () => {
    expect(failure({ ADMIN_EMAILS: "ops@example.com; me@example.com" })).toContain("ADMIN_EMAILS");
    expect(failure({ ADMIN_EMAILS: "admin" })).toContain("ADMIN_EMAILS");
  });
});
