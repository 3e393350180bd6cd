import { describe, expect, test } from "bun:test";
import { decode as decodePng, encode as encodePng } from "fast-png";
import jpeg from "jpeg-js";
import { downscaleForModel } from "./image-downscale";

function gradient(width: number, height: number): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      data[o] = (x * 255) / width;
      data[o + 1] = (y * 255) / height;
      data[o + 2] = 128;
      data[o + 3] = 255;
    }
  }
  return data;
}

describe("images for the model", () => {
  test("a large PNG comes back with its longest side at 1568 px, the picture kept", () => {
    const png = encodePng({ width: 3_000, height: 2_000, data: gradient(3_000, 2_000), channels: 4, depth: 8 });
    const out = downscaleForModel(png, "image/png");
    expect(out.mime).toBe("image/png");
    const decoded = decodePng(out.bytes);
    expect([decoded.width, decoded.height]).toEqual([1_568, 1_045]);
    // The right edge stays red-ish and the bottom green-ish: the content was scaled, not cropped.
    const px = (x: number, y: number) => Array.from(decoded.data.slice((y * decoded.width + x) * 4, (y * decoded.width + x) * 4 + 3));
    expect(px(1_567, 0)[0]).toBeGreaterThan(240);
    expect(px(0, 1_044)[1]).toBeGreaterThan(240);
  });

  test("a large JPEG is scaled and stays a JPEG; a tall one is limited by its height", () => {
    const big = jpeg.encode({ width: 1_000, height: 4_000, data: Buffer.from(gradient(1_000, 4_000)) }, 90).data;
    const out = downscaleForModel(new Uint8Array(big), "image/jpeg");
    expect(out.mime).toBe("image/jpeg");
    const decoded = jpeg.decode(out.bytes);
    expect([decoded.width, decoded.height]).toEqual([392, 1_568]);
    expect(out.bytes.length).toBeLessThan(big.length);
  });

  test("small images and formats without a decoder keep their exact bytes", () => {
    const small = encodePng({ width: 800, height: 600, data: gradient(800, 600), channels: 4, depth: 8 });
    expect(downscaleForModel(small, "image/png").bytes).toBe(small);
    const gif = new Uint8Array([71, 73, 70, 56, 57, 97]);
    expect(downscaleForModel(gif, "image/gif")).toEqual({ bytes: gif, mime: "image/gif" });
  });
});
