import type { Node, Session } from './faults-support.js';

export type Write = { id: string; description: string; node: Node };

/**
 * A bounded write load through a load balancer of the test's own, as one in front of the nodes would
 * behave: it asks each node's /readyz every 50 ms and sends new requests only to ready nodes, round
 * robin; a connection that is refused (nothing was sent) goes to another node. Any request that was
 * sent and did not come back 201 is lost, and the test fails on it.
 */
export function startLoad(
  targets: Node[],
  session: Session,
  body: (n: number) => { description: string },
  options: { workers?: number; max?: number } = {},
) {
  const workers = options.workers ?? 4;
  const max = options.max ?? 1_000;
  const pool = targets.map((node) => ({ node, ready: true }));
  const acked: Write[] = [];
  const lost: string[] = [];
  let retried = 0;
  let sent = 0;
  let turn = 0;
  let stopped = false;

  let timer: NodeJS.Timeout | undefined;
  const probe = async () => {
    await Promise.all(
      pool.map(async (p) => {
        const res = await fetch(`${p.node.url}/readyz`, { signal: AbortSignal.timeout(1_000) }).catch(() => null);
        p.ready = res?.status === 200;
      }),
    );
    if (!stopped) timer = setTimeout(() => void probe(), 50);
  };
  void probe();
  const nextTick = () => new Promise((r) => setTimeout(r, 20));

  async function post(node: Node, payload: unknown): Promise<{ refused: boolean; status: number; body: unknown; error?: string }> {
    try {
      const res = await fetch(`${node.url}/api/observations`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-tenant': session.tenant,
          authorization: `Bearer ${session.token}`,
          'x-csrf-token': session.csrf,
        },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(30_000),
      });
      return { refused: false, status: res.status, body: await res.json().catch(() => null) };
    } catch (err) {
      const code = (err as { cause?: { code?: string } }).cause?.code;
      return { refused: code === 'ECONNREFUSED', status: 0, body: null, error: code ?? String(err) };
    }
  }

  const worker = async () => {
    while (!stopped && sent < max) {
      sent += 1;
      const payload = body(sent);
      for (let attempt = 0; ; attempt += 1) {
        const ready = pool.filter((p) => p.ready);
        if (ready.length === 0 || attempt > 50) {
          if (attempt > 50) {
            lost.push(`${payload.description}: no node would take it`);
            break;
          }
          await nextTick();
          continue;
        }
        const target = ready[turn++ % ready.length]!;
        const res = await post(target.node, payload);
        if (res.refused) {
          target.ready = false;
          retried += 1;
          continue;
        }
        if (res.status === 201) acked.push({ id: (res.body as { id: string }).id, description: payload.description, node: target.node });
        else lost.push(`${payload.description} on ${target.node.url}: ${res.status} ${res.error ?? JSON.stringify(res.body)}`);
        break;
      }
    }
  };
  const running = Promise.all(Array.from({ length: workers }, () => worker()));

  return {
    ackedBy: (node: Node) => acked.filter((w) => w.node === node).length,
    /** A restarted node takes the place of the one it replaces. */
    replace(old: Node, replacement: Node) {
      const slot = pool.find((p) => p.node === old);
      if (slot) slot.node = replacement;
    },
    async stop() {
      stopped = true;
      await running;
      clearTimeout(timer);
      return { acked, lost, retried };
    },
  };
}
