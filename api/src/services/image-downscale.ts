/**
 * Attached images made small enough for a model: the longest side at most 1,568 px (larger images cost
 * more tokens and providers scale them down anyway). PNG and JPEG are decoded and re-encoded in pure
 * JavaScript (`fast-png`, `jpeg-js`: no native build, so the same code runs under Bun everywhere the app
 * does); GIF, WebP and AVIF have no pure-JS codec here and go as they are. Images already small enough
 * keep their exact bytes.
 *
 * @example
 * const { bytes, mime } = downscaleForModel(uploaded, "image/png");
 */
import { decode as decodePng, encode as encodePng } from "fast-png";
import jpeg from "jpeg-js";

export const MAX_MODEL_IMAGE_SIDE = 1_568;
const JPEG_QUALITY = 85;

type Rgba = { width: number; height: number; data: Uint8Array };

export function downscaleForModel(bytes: Uint8Array, mime: string, maxSide = MAX_MODEL_IMAGE_SIDE): { bytes: Uint8Array; mime: string } {
  if (mime !== "image/png" && mime !== "image/jpeg") return { bytes, mime };
  const size = mime === "image/png" ? pngSize(bytes) : null;
  if (size && Math.max(size.width, size.height) <= maxSide) return { bytes, mime }; // no decode needed
  const image = mime === "image/png" ? pngToRgba(bytes) : jpegToRgba(bytes);
  if (Math.max(image.width, image.height) <= maxSide) return { bytes, mime };
  const scale = maxSide / Math.max(image.width, image.height);
  const small = resize(image, Math.max(1, Math.round(image.width * scale)), Math.max(1, Math.round(image.height * scale)));
  if (mime === "image/jpeg") {
    return { bytes: new Uint8Array(jpeg.encode({ ...small, data: Buffer.from(small.data) }, JPEG_QUALITY).data), mime };
  }
  return { bytes: encodePng({ width: small.width, height: small.height, data: small.data, channels: 4, depth: 8 }), mime };
}

/** Width and height from the PNG header, without decoding the pixels. */
function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  if (bytes.length < 24) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

function jpegToRgba(bytes: Uint8Array): Rgba {
  const decoded = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxMemoryUsageInMB: 1024 });
  return { width: decoded.width, height: decoded.height, data: decoded.data };
}

/** Any PNG (grey, grey+alpha, RGB, RGBA, palette; 1–16 bits) as 8-bit RGBA. */
function pngToRgba(bytes: Uint8Array): Rgba {
  const png = decodePng(bytes);
  const { width, height, channels } = png;
  const out = new Uint8Array(width * height * 4);
  const src = png.data;
  const max = png.depth === 16 ? 65535 : 255;
  const at = (i: number) => (png.depth === 16 ? Math.round((src[i]! / max) * 255) : src[i]!);
  for (let p = 0; p < width * height; p++) {
    const o = p * 4;
    if (png.palette) {
      const entry = png.palette[src[p]!] ?? [0, 0, 0];
      out[o] = entry[0]!;
      out[o + 1] = entry[1]!;
      out[o + 2] = entry[2]!;
      out[o + 3] = entry[3] ?? 255;
    } else if (channels >= 3) {
      out[o] = at(p * channels);
      out[o + 1] = at(p * channels + 1);
      out[o + 2] = at(p * channels + 2);
      out[o + 3] = channels === 4 ? at(p * channels + 3) : 255;
    } else {
      const grey = at(p * channels);
      out[o] = out[o + 1] = out[o + 2] = grey;
      out[o + 3] = channels === 2 ? at(p * channels + 1) : 255;
    }
  }
  return { width, height, data: out };
}

/** Area-average (box) downscaling: each output pixel is the mean of the source pixels it covers. */
function resize(src: Rgba, width: number, height: number): Rgba {
  const out = new Uint8Array(width * height * 4);
  const sx = src.width / width;
  const sy = src.height / height;
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor(y * sy);
    const y1 = Math.max(y0 + 1, Math.floor((y + 1) * sy));
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor(x * sx);
      const x1 = Math.max(x0 + 1, Math.floor((x + 1) * sx));
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let yy = y0; yy < y1; yy++) {
        let i = (yy * src.width + x0) * 4;
        for (let xx = x0; xx < x1; xx++, i += 4) {
          r += src.data[i]!;
          g += src.data[i + 1]!;
          b += src.data[i + 2]!;
          a += src.data[i + 3]!;
        }
      }
      const n = (y1 - y0) * (x1 - x0);
      const o = (y * width + x) * 4;
      out[o] = r / n;
      out[o + 1] = g / n;
      out[o + 2] = b / n;
      out[o + 3] = a / n;
    }
  }
  return { width, height, data: out };
}
