/** The in-process event bus (embedded mode): delivery after the publisher's turn, two apart channels, unsubscribe, close. */
import { describe, expect, test } from "bun:test";
import { createMemoryBus } from "./memory-bus";
import type { BusEvent, FileBusEvent, SiteBusEvent } from "./types";

const event: FileBusEvent = {
  type: "file.created",
  projectId: "p1",
  ownerId: "u1",
  origin: "sandbox",
  pushedBy: "sync-1",
  file: { id: "f1", projectId: "p1", path: "src/a.ts", size: 3, updatedAt: "2026-01-01T00:00:00.000Z" },
};
const site: SiteBusEvent = { type: "site.changed", slug: "my-site" };

describe("memory event bus", () => {
  test("every subscriber gets the event as published, after the publisher's own code has run", async () => {
    const bus = createMemoryBus();
    const first: BusEvent[] = [];
    const second: BusEvent[] = [];
    bus.subscribe((e) => first.push(e));
    bus.subscribe((e) => second.push(e));
    const published = bus.publish(event);
    // Not inside publish: a subscriber that publishes again cannot re-enter the publisher.
    expect(first).toEqual([]);
    await published;
    expect(first).toEqual([event]);
    expect(second).toEqual([event]);
    expect(bus.kind).toBe("memory");
  });

  test("file and site events travel on separate channels", async () => {
    const bus = createMemoryBus();
    const files: BusEvent[] = [];
    const sites: SiteBusEvent[] = [];
    bus.subscribe((e) => files.push(e));
    bus.subscribeSite((e) => sites.push(e));
    await bus.publish(event);
    await bus.publishSite(site);
    expect(files).toEqual([event]);
    expect(sites).toEqual([site]);
  });

  test("unsubscribe stops one handler; close stops them all", async () => {
    const bus = createMemoryBus();
    const gone: BusEvent[] = [];
    const kept: BusEvent[] = [];
    const sites: SiteBusEvent[] = [];
    const off = bus.subscribe((e) => gone.push(e));
    bus.subscribe((e) => kept.push(e));
    bus.subscribeSite((e) => sites.push(e));
    off();
    await bus.publish(event);
    expect(gone).toEqual([]);
    expect(kept).toEqual([event]);
    await bus.close();
    await bus.publish(event);
    await bus.publishSite(site);
    expect(kept).toEqual([event]);
    expect(sites).toEqual([]);
  });
});
