import { expect, test } from "bun:test";
import type { Project } from "@shared/schemas/project";
import { createQueryClient } from "./query-client";
import { projectKeys } from "./query-keys";

const project = (over: Partial<Project>): Project => ({
  id: "p1",
  name: "Demo",
  description: null,
  sandboxId: null,
  sandboxUrl: null,
  workflowCommand: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...over,
});

test("a fresh copy of one project replaces its card in the cached list", async () => {
  const client = createQueryClient();
  const other = project({ id: "p2", name: "Other" });
  client.setQueryData(projectKeys.all, [project({}), other]);
  const fresh = project({ sandboxId: "sbx-1", updatedAt: "2026-01-01T01:00:00.000Z" });
  await client.fetchQuery({ queryKey: projectKeys.detail("p1"), queryFn: async () => fresh });
  expect(client.getQueryData(projectKeys.all)).toEqual([fresh, other]);
});

test("no list cached, nothing to update; an unchanged project leaves the list as it was", async () => {
  const client = createQueryClient();
  await client.fetchQuery({ queryKey: projectKeys.detail("p1"), queryFn: async () => project({}) });
  expect(client.getQueryData(projectKeys.all)).toBeUndefined();
  const list = [project({})];
  client.setQueryData(projectKeys.all, list);
  await client.fetchQuery({ queryKey: projectKeys.detail("p1"), queryFn: async () => project({}), staleTime: 0 });
  expect(client.getQueryData(projectKeys.all)).toBe(list);
});
