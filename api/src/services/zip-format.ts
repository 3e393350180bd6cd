/**
 * The ZIP format's records, for a ZIP written while it streams (project-zip.ts). Plain ZIP without ZIP64: a
 * project's size and file-count limits keep far below 4 GB and 65,535 entries. An entry is written either
 * whole (its CRC and sizes known before its data: small files) or streamed (bit 3: zeros in the local
 * header, the real values in a data descriptor after the data and in the central directory).
 *
 * @example
 * yield localHeader(entry); yield data; yield dataDescriptor(entry);
 */
export const STORED = 0;
export const DEFLATE = 8;
const UTF8_NAMES = 0x0800;
const DATA_DESCRIPTOR = 0x0008;
const MADE_BY_UNIX = (3 << 8) | 20;
const REGULAR_FILE_0644 = (0o100644 << 16) >>> 0;
/** The largest stored (uncompressed) block a deflate stream may hold. */
const STORED_BLOCK = 65_535;

export type ZipEntry = {
  name: Uint8Array;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
  time: number;
  date: number;
  method: number;
  /** Written as it streamed: CRC and sizes follow the data in a data descriptor. */
  streamed: boolean;
};

export function dosDateTime(iso: string): { time: number; date: number } {
  const d = new Date(iso);
  const year = Math.max(1980, d.getUTCFullYear());
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

const flags = (e: ZipEntry) => UTF8_NAMES | (e.streamed ? DATA_DESCRIPTOR : 0);

export function localHeader(e: ZipEntry): Uint8Array {
  const h = new DataView(new ArrayBuffer(30));
  h.setUint32(0, 0x04034b50, true);
  h.setUint16(4, 20, true);
  h.setUint16(6, flags(e), true);
  h.setUint16(8, e.method, true);
  h.setUint16(10, e.time, true);
  h.setUint16(12, e.date, true);
  if (!e.streamed) {
    h.setUint32(14, e.crc, true);
    h.setUint32(18, e.compressed, true);
    h.setUint32(22, e.size, true);
  }
  h.setUint16(26, e.name.length, true);
  h.setUint16(28, 0, true);
  return concat([new Uint8Array(h.buffer), e.name]);
}

/** After a streamed entry's data: its CRC and sizes, with the optional signature every reader accepts. */
export function dataDescriptor(e: ZipEntry): Uint8Array {
  const h = new DataView(new ArrayBuffer(16));
  h.setUint32(0, 0x08074b50, true);
  h.setUint32(4, e.crc, true);
  h.setUint32(8, e.compressed, true);
  h.setUint32(12, e.size, true);
  return new Uint8Array(h.buffer);
}

export function centralEntry(e: ZipEntry): Uint8Array {
  const h = new DataView(new ArrayBuffer(46));
  h.setUint32(0, 0x02014b50, true);
  h.setUint16(4, MADE_BY_UNIX, true);
  h.setUint16(6, 20, true);
  h.setUint16(8, flags(e), true);
  h.setUint16(10, e.method, true);
  h.setUint16(12, e.time, true);
  h.setUint16(14, e.date, true);
  h.setUint32(16, e.crc, true);
  h.setUint32(20, e.compressed, true);
  h.setUint32(24, e.size, true);
  h.setUint16(28, e.name.length, true);
  h.setUint32(38, REGULAR_FILE_0644, true);
  h.setUint32(42, e.offset, true);
  return concat([new Uint8Array(h.buffer), e.name]);
}

export function endOfCentralDirectory(count: number, size: number, offset: number): Uint8Array {
  const h = new DataView(new ArrayBuffer(22));
  h.setUint32(0, 0x06054b50, true);
  h.setUint16(8, count, true);
  h.setUint16(10, count, true);
  h.setUint32(12, size, true);
  h.setUint32(16, offset, true);
  return new Uint8Array(h.buffer);
}

/**
 * `data` as deflate stored blocks (no compression, 5 bytes per block): incompressible content streamed
 * under method 8, since some readers (Java's ZipInputStream) refuse a stored entry with a data descriptor.
 * Yields views of `data`, never a copy. End the stream with `finalStoredBlock()`.
 */
export function* storedBlocks(data: Uint8Array): Generator<Uint8Array> {
  for (let at = 0; at < data.length; at += STORED_BLOCK) {
    const length = Math.min(STORED_BLOCK, data.length - at);
    yield new Uint8Array([0, length & 0xff, length >>> 8, ~length & 0xff, (~length >>> 8) & 0xff]);
    yield data.subarray(at, at + length);
  }
}

/** An empty stored block marked final: ends a deflate stream of `storedBlocks`. */
export const finalStoredBlock = () => new Uint8Array([1, 0, 0, 0xff, 0xff]);

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
