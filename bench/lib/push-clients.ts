/**
 * A fleet of Socket.IO clients in a process of its own, so that their work is not counted in the
 * server's event loop (they still share the machine's cores). `bench/push.ts` forks it and drives it
 * over IPC: connect, report receipts of 'observations' events, close.
 *
 * Times are `process.hrtime` milliseconds: CLOCK_MONOTONIC, one clock for every process of the machine,
 * so they compare with the writer's times in the parent process.
 */
import { io, type Socket } from 'socket.io-client';

export type Target = { url: string; token: string; tenant: string };

export type Command =
  /** Client i connects to `urls[i % urls.length]` with `sessions[i % sessions.length]`, `concurrency` handshakes at a time. */
  | {
      type: 'connect';
      from: number;
      count: number;
      urls: string[];
      sessions: Array<{ token: string; tenant: string }>;
      concurrency: number;
    }
  | { type: 'progress'; ids: string[] }
  | { type: 'collect'; ids: string[] }
  | { type: 'close' };

export type Reply =
  | { type: 'connected'; connected: number; failed: number; errors: string[]; ms: number; handshakes: number[] }
  | { type: 'progress'; received: number }
  /** Per id, each client's receipt time (-1 when it never arrived), in this process's client order. */
  | { type: 'receipts'; receipts: Record<string, number[]>; duplicates: number; disconnects: number; nodes: number[] }
  | { type: 'closed' };

const now = () => Number(process.hrtime.bigint()) / 1e6;

const CONNECT_TIMEOUT_MS = 30_000;

const sockets: Socket[] = [];
/** Which URL each client used, as an index into the connect command's `urls`. */
const nodeOf: number[] = [];
const receipts = new Map<string, Float64Array>();
let duplicates = 0;
let disconnects = 0;
let closing = false;

function reply(message: Reply) {
  process.send?.(message);
}

function receiptsOf(id: string): Float64Array {
  let times = receipts.get(id);
  if (!times) {
    times = new Float64Array(sockets.length).fill(-1);
    receipts.set(id, times);
  }
  return times;
}

function connectOne(index: number, target: Target): Promise<number> {
  const started = now();
  const socket = io(target.url, {
    path: '/socket.io',
    auth: { token: target.token, tenant: target.tenant },
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    timeout: CONNECT_TIMEOUT_MS,
  });
  sockets[index] = socket;
  // The receipt time is taken first, before anything else the handler does.
  socket.on('observations', (event: { change?: string; id?: string }) => {
    const at = now();
    if (event.change !== 'created' || !event.id) return;
    const times = receiptsOf(event.id);
    if (times[index] !== -1) duplicates += 1;
    else times[index] = at;
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => {
      socket.on('disconnect', () => {
        if (!closing) disconnects += 1;
      });
      resolve(now() - started);
    });
    socket.once('connect_error', (err) => reject(err));
  });
}

async function connectAll(c: Extract<Command, { type: 'connect' }>) {
  const started = now();
  const handshakes: number[] = [];
  const errors = new Map<string, number>();
  let failed = 0;
  let next = 0;
  // Sockets are allocated up front so that receipt arrays have one slot per client from the start.
  sockets.length = c.count;
  const worker = async () => {
    while (next < c.count) {
      const i = next++;
      const global = c.from + i;
      nodeOf[i] = global % c.urls.length;
      const session = c.sessions[global % c.sessions.length]!;
      try {
        handshakes.push(await connectOne(i, { url: c.urls[nodeOf[i]]!, ...session }));
      } catch (err) {
        failed += 1;
        const text = err instanceof Error ? err.message : String(err);
        errors.set(text, (errors.get(text) ?? 0) + 1);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, c.concurrency) }, worker));
  reply({
    type: 'connected',
    connected: c.count - failed,
    failed,
    ms: now() - started,
    handshakes,
    errors: [...errors].map(([text, n]) => `${n} × ${text}`),
  });
}

process.on('message', (message: Command) => {
  switch (message.type) {
    case 'connect':
      void connectAll(message);
      break;
    case 'progress': {
      let received = 0;
      for (const id of message.ids) for (const t of receipts.get(id) ?? []) if (t !== -1) received += 1;
      reply({ type: 'progress', received });
      break;
    }
    case 'collect':
      reply({
        type: 'receipts',
        duplicates,
        disconnects,
        nodes: nodeOf,
        receipts: Object.fromEntries(
          message.ids.map((id) => [id, Array.from(receipts.get(id) ?? new Float64Array(sockets.length).fill(-1))]),
        ),
      });
      break;
    case 'close':
      closing = true;
      for (const s of sockets) s?.close();
      reply({ type: 'closed' });
      process.disconnect?.();
      break;
  }
});

// The parent going away must not leave thousands of sockets open.
process.on('disconnect', () => {
  closing = true;
  for (const s of sockets) s?.close();
  process.exit(0);
});
