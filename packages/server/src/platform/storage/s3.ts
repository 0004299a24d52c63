import { PassThrough, type Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from '../config.js';
import { StartupError } from '../startup.js';
import { sizeOf, streamOf, type BlobStore } from './blobs.js';

/**
 * Stored files in any S3-compatible bucket (AWS S3, MinIO, Ceph, R2…), so that every node reads what
 * any node stored. Bytes go up as one streamed PUT of known length (an upload is at most 10 MB, spooled
 * on disk first: see platform/http/upload.ts), so at most a socket buffer of a file is in memory, and
 * come down streamed through the app: the files route keeps its rights check, its type and
 * disposition headers and its same-origin address (a signed URL to another origin would need the
 * store in the page's content security policy, and would outlive a sign-out for its lifetime).
 */
export function s3Blobs(config: S3Config): BlobStore {
  const client = new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    ...(config.credentials ? { credentials: config.credentials } : {}),
    // The SDK's default adds a CRC32 trailer in aws-chunked encoding to streamed bodies, which many
    // S3-compatible stores do not understand; checksums are still sent when an operation requires one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
  });
  const Bucket = config.bucket;
  return {
    kind: 's3',
    async put(key, source, contentType) {
      await client.send(
        new PutObjectCommand({ Bucket, Key: key, Body: streamOf(source), ContentLength: sizeOf(source), ContentType: contentType }),
      );
    },
    open(key) {
      // Callers take a stream at once (mail attachments, PDF photos, the files route): the object's
      // body is piped into it when the store answers, and a missing object fails it.
      const out = new PassThrough();
      client.send(new GetObjectCommand({ Bucket, Key: key })).then(
        (res) => {
          const body = res.Body as Readable | undefined;
          if (!body) return out.destroy(new Error(`s3: ${key} has no body`));
          body.once('error', (err) => out.destroy(err));
          out.once('close', () => body.destroy());
          body.pipe(out);
        },
        (err: Error) => out.destroy(err),
      );
      return out;
    },
    async remove(key) {
      // Deleting a key that is not there succeeds in S3.
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async check() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch (err) {
        const e = err as Error & { $metadata?: { httpStatusCode?: number } };
        const status = e.$metadata?.httpStatusCode;
        const why =
          status === 404
            ? 'it does not exist'
            : status === 403 || status === 401
              ? 'access is refused (check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY)'
              : `${e.name}: ${e.message}`;
        throw new StartupError(`Cannot use S3 bucket "${Bucket}"${config.endpoint ? ` at ${config.endpoint}` : ''}: ${why}.`);
      }
    },
  };
}
