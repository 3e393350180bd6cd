/** The terminal socket's binary frames: what is encoded decodes to the same kind and bytes, sizes are clamped, pastes split. */
import { describe, expect, test } from "bun:test";
import {
  clampTerminalSize,
  decodePtyFrame,
  decodeResize,
  encodePtyFrame,
  encodeResize,
  inputFrames,
  MAX_PTY_MESSAGE_BYTES,
  PTY_EXIT,
  PTY_INPUT,
  PTY_OUTPUT,
  PTY_RESIZE,
  PTY_TOKEN,
} from "./pty-frames";

describe("pty frames", () => {
  test("every kind round-trips with its bytes as they are (half a UTF-8 character, NUL, 0xff)", () => {
    const bytes = new Uint8Array([0xe2, 0x82, 0x00, 0xff, 0x03]);
    for (const kind of [PTY_INPUT, PTY_RESIZE, PTY_TOKEN, PTY_OUTPUT, PTY_EXIT]) {
      const frame = encodePtyFrame(kind, bytes);
      expect(frame.length).toBe(bytes.length + 1);
      const decoded = decodePtyFrame(frame)!;
      expect(decoded.kind).toBe(kind);
      expect([...decoded.payload]).toEqual([...bytes]);
    }
    expect(decodePtyFrame(encodePtyFrame(PTY_EXIT))).toEqual({ kind: PTY_EXIT, payload: new Uint8Array(0) });
    expect(decodePtyFrame(new Uint8Array(0))).toBeNull();
  });

  test("an exit frame carries the status as UTF-8 JSON", () => {
    const frame = encodePtyFrame(PTY_EXIT, new TextEncoder().encode(JSON.stringify({ code: null })));
    expect(JSON.parse(new TextDecoder().decode(decodePtyFrame(frame)!.payload))).toEqual({ code: null });
  });

  test("a resize round-trips big-endian, clamped to 1–1000 whole cells", () => {
    const decode = (frame: Uint8Array) => decodeResize(decodePtyFrame(frame)!.payload);
    expect(decodePtyFrame(encodeResize(80, 24))!.kind).toBe(PTY_RESIZE);
    expect(decode(encodeResize(80, 24))).toEqual({ cols: 80, rows: 24 });
    expect([...encodeResize(300, 2)]).toEqual([PTY_RESIZE, 0x01, 0x2c, 0x00, 0x02]);
    expect(decode(encodeResize(5000, 0))).toEqual({ cols: 1000, rows: 1 });
    expect(decode(encodeResize(Number.NaN, 24.9))).toEqual({ cols: 1, rows: 24 });
    // A payload read at an offset (a subarray of a larger message) decodes the same.
    const message = new Uint8Array([9, ...encodeResize(120, 40)]);
    expect(decodeResize(message.subarray(2))).toEqual({ cols: 120, rows: 40 });
    expect(decodeResize(new Uint8Array(3))).toBeNull();
    expect(clampTerminalSize(-3)).toBe(1);
    expect(clampTerminalSize(Number.POSITIVE_INFINITY)).toBe(1);
  });

  test("a large paste is split into input frames under the message limit that join back to it", () => {
    const paste = new Uint8Array(MAX_PTY_MESSAGE_BYTES * 2 + 10).map((_, i) => i % 251);
    const frames = inputFrames(paste);
    expect(frames.length).toBe(3);
    for (const frame of frames) {
      expect(frame.length).toBeLessThanOrEqual(MAX_PTY_MESSAGE_BYTES);
      expect(frame[0]).toBe(PTY_INPUT);
    }
    const joined = new Uint8Array(frames.reduce((n, f) => n + f.length - 1, 0));
    let at = 0;
    for (const frame of frames) {
      joined.set(frame.subarray(1), at);
      at += frame.length - 1;
    }
    expect(joined).toEqual(paste);
    expect(inputFrames(new Uint8Array(0))).toEqual([]);
  });
});
