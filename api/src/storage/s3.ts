/**
 * ObjectStore on S3 or any S3-compatible server (MinIO, R2, s3rver…), the only file that imports the AWS SDK.
 * Retries are the SDK's own (3 attempts); timeouts are short so a dead endpoint fails in seconds and
 * /api/ready can answer 503 instead of hanging.
 *
 * @example
 * const store = createS3Store({ bucket: "builder", region: "us-east-1", forcePathStyle: false });
 * const bytes = await store.get("projects/p1/files/index.html"); // Uint8Array | null
 */
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import { compareKeys, refuseEmptyPrefix } from "./local";
import type { ObjectStore } from "./types";

export type S3StoreOptions = {
  bucket: string;
  /** A non-AWS server, e.g. http://127.0.0.1:9000. */
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  /** Both or neither; neither means the SDK's default chain (env, profile, instance role). */
  accessKeyId?: string;
  secretAccessKey?: string;
};

/** DeleteObjects takes at most this many keys per call. */
const DELETE_BATCH = 1000;
/** Connecting, and any silence mid-request, longer than this is a dead endpoint. */
const CONNECT_TIMEOUT_MS = 5_000;
const IDLE_TIMEOUT_MS = 5_000;
/** The whole of ping, retries included, so readiness checks answer promptly. */
const PING_TIMEOUT_MS = 5_000;

export function createS3Store(options: S3StoreOptions): ObjectStore {
  const { bucket } = options;
  const config: S3ClientConfig = {
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    maxAttempts: 3,
    requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, socketTimeout: IDLE_TIMEOUT_MS },
  };
  if (options.accessKeyId && options.secretAccessKey) {
    config.credentials = { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey };
  }
  if (options.endpoint) {
    // S3-compatible servers vary in their support of the newer default CRC checksums; send them only
    // where the API requires one (DeleteObjects), as SDKs did before 2025.
    config.requestChecksumCalculation = "WHEN_REQUIRED";
    config.responseChecksumValidation = "WHEN_REQUIRED";
  }
  const client = new S3Client(config);

  const list = async (prefix: string): Promise<string[]> => {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
      for (const object of page.Contents ?? []) if (object.Key !== undefined) keys.push(object.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    // S3 already lists in UTF-8 byte order; some compatible servers do not.
    return keys.sort(compareKeys);
  };

  return {
    kind: "s3",

    async put(key, body, contentType) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType ?? "application/octet-stream" }));
    },

    async get(key) {
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return out.Body ? await out.Body.transformToByteArray() : new Uint8Array();
      } catch (err) {
        if (isMissingKey(err)) return null;
        throw err;
      }
    },

    async getStream(key) {
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        if (!out.Body) return new Blob([]).stream();
        // The response body is read as the consumer pulls it: TCP flow control holds the rest at S3.
        return out.Body.transformToWebStream() as ReadableStream<Uint8Array>;
      } catch (err) {
        if (isMissingKey(err)) return null;
        throw err;
      }
    },

    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },

    async deletePrefix(prefix) {
      refuseEmptyPrefix(prefix);
      // List everything first: deleting while paging relies on how a server builds continuation tokens.
      const keys = await list(prefix);
      for (let i = 0; i < keys.length; i += DELETE_BATCH) {
        const batch = keys.slice(i, i + DELETE_BATCH);
        const out = await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
        const errors = out.Errors ?? [];
        if (errors.length > 0) {
          const sample = errors
            .slice(0, 3)
            .map((e) => `${e.Key}: ${e.Code ?? "error"} ${e.Message ?? ""}`.trim())
            .join("; ");
          throw new Error(`S3 could not delete ${errors.length} of ${batch.length} objects under "${prefix}" (${sample})`);
        }
      }
      return keys.length;
    },

    list,

    async ping() {
      await client.send(new HeadBucketCommand({ Bucket: bucket }), { abortSignal: AbortSignal.timeout(PING_TIMEOUT_MS) });
    },
  };
}

/**
 * Only S3's own NoSuchKey means "no such object" (S3, MinIO, R2 and s3rver all send it for a GET). Any other
 * 404 (NoSuchBucket, or a wrong endpoint or proxy answering 404 to everything) is a fault to report:
 * reading it as "missing" would make every file look deleted.
 */
function isMissingKey(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { name?: string }).name === "NoSuchKey";
}
