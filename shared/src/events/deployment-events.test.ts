/** Build progress as the browser parses it: log and status events pass whole, malformed ones are refused. */
import { describe, expect, test } from "bun:test";
import { deploymentStatuses } from "../schemas/publish";
import { deploymentEventSchema } from "./deployment-events";

describe("deployment events", () => {
  test("a log chunk and every status parse to themselves", () => {
    const log = { type: "deployment.log", projectId: "p1", deploymentId: "d1", text: "vite v5 building…\n" } as const;
    expect(deploymentEventSchema.parse(log)).toEqual(log);
    for (const status of deploymentStatuses) {
      const event = { type: "deployment.status", projectId: "p1", deploymentId: "d1", status, url: "https://a.example.com" } as const;
      expect(deploymentEventSchema.parse(event)).toEqual(event);
    }
    const failed = { type: "deployment.status", projectId: "p1", deploymentId: "d1", status: "failed", url: "", error: "npm run build exited 1" } as const;
    expect(deploymentEventSchema.parse(failed)).toEqual(failed);
  });

  test("fields the server does not send are dropped (the hub's ownerId, a slug)", () => {
    const parsed = deploymentEventSchema.parse({ type: "deployment.log", projectId: "p1", deploymentId: "d1", text: "x", ownerId: "u1", slug: "s" });
    expect(parsed).toEqual({ type: "deployment.log", projectId: "p1", deploymentId: "d1", text: "x" });
  });

  test("malformed events are refused", () => {
    const bad = [
      { type: "deployment.log", projectId: "p1", deploymentId: "d1" },
      { type: "deployment.status", projectId: "p1", deploymentId: "d1", status: "exploded", url: "" },
      { type: "deployment.status", projectId: "p1", deploymentId: "d1", status: "live" },
      { type: "deployment.done", projectId: "p1", deploymentId: "d1" },
      { type: "deployment.log", projectId: 1, deploymentId: "d1", text: "x" },
    ];
    for (const event of bad) expect(deploymentEventSchema.safeParse(event).success).toBe(false);
  });
});
