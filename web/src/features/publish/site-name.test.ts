import { describe, expect, test } from "bun:test";
import { siteNameProblem, siteNameShown } from "./site-name";

const site = { slug: null, suggestedSlug: "todo-app" };

describe("the Publish dialog's site name", () => {
  test("starts from the site's name, else the suggestion; empty while loading, with no complaint", () => {
    expect(siteNameShown(null, site)).toBe("todo-app");
    expect(siteNameShown(null, { slug: "my-todos", suggestedSlug: "todo-app" })).toBe("my-todos");
    expect(siteNameShown(null, undefined)).toBe("");
    expect(siteNameProblem(null, "")).toBeNull();
    expect(siteNameProblem(null, "todo-app")).toBeNull();
  });

  test("a cleared name stays empty and asks for one", () => {
    const shown = siteNameShown("", site);
    expect(shown).toBe("");
    expect(siteNameProblem("", shown)).toBe("Choose a site name.");
  });

  test("what the user typed is kept and checked", () => {
    expect(siteNameShown("My Site", site)).toBe("My Site");
    expect(siteNameProblem("my site", "my site")).toBe("Use only lowercase letters, digits and hyphens.");
    expect(siteNameProblem("mine", "mine")).toBeNull();
  });
});
