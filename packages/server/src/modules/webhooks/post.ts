import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { WEBHOOK_RESPONSE_EXCERPT, WEBHOOK_TIMEOUT_SECONDS } from '@bulwark/domain';

export type PostOutcome =
  { kind: 'answered'; status: number; excerpt: string } | { kind: 'timeout' } | { kind: 'unreachable'; reason: string };

/** The most of an answer read: enough for the excerpt shown, never a receiver's whole page. */
const READ_LIMIT = 16 * 1024;

/**
 * One POST to the checked address (`pinned`): the host name still goes in the Host header and TLS's
 * server name, but no second DNS look-up is made. No redirect is followed and no proxy is used.
 */
export function postJson(
  url: URL,
  pinned: { address: string; family: 4 | 6 },
  body: string,
  headers: Record<string, string>,
): Promise<PostOutcome> {
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all) (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const done = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const req = client.request(
      url,
      {
        method: 'POST',
        lookup,
        agent: false,
        timeout: WEBHOOK_TIMEOUT_SECONDS * 1000,
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size >= READ_LIMIT) return;
          chunks.push(chunk);
          size += chunk.length;
          if (size >= READ_LIMIT) res.destroy();
        });
        const finish = () =>
          done({
            kind: 'answered',
            status: res.statusCode ?? 0,
            excerpt: Buffer.concat(chunks).toString('utf8').slice(0, WEBHOOK_RESPONSE_EXCERPT),
          });
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
      },
    );
    // The whole exchange, not only an idle socket, must finish in time.
    const deadline = setTimeout(() => {
      done({ kind: 'timeout' });
      req.destroy();
    }, WEBHOOK_TIMEOUT_SECONDS * 1000);
    req.on('timeout', () => {
      done({ kind: 'timeout' });
      req.destroy();
    });
    req.on('error', (err: NodeJS.ErrnoException) => done({ kind: 'unreachable', reason: err.code ?? err.message }));
    req.on('close', () => clearTimeout(deadline));
    req.end(body);
  });
}
