/**
 * Whether this Node can run a server as several processes on one port: its
 * net module listens with SO_REUSEPORT when asked (`reusePort`, Node 22.12 and
 * 23.1 on). Older Nodes ignore the option without a word, so it is probed the
 * only way that cannot be fooled: two listeners on one loopback port.
 */
import { createServer, type Server } from 'node:net';

/** Binding on loopback answers at once; past this the probe says no. */
const PROBE_DEADLINE_MS = 2000;

async function listensWithReusePort(): Promise<boolean> {
  const first = createServer();
  const second = createServer();
  try {
    const port = await listen(first, 0);
    await listen(second, port);
    return true;
  } catch {
    return false;
  } finally {
    first.close();
    second.close();
  }
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('listen timed out')), PROBE_DEADLINE_MS);
    server.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    // `reusePort` is not in @types/node 20's ListenOptions: Node 20 ignores it, which is what is probed.
    server.listen({ host: '127.0.0.1', port, reusePort: true } as Parameters<Server['listen']>[0], () => {
      clearTimeout(timer);
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}

/** True when node:net servers of several processes can share one port here (probed once, when first imported). */
export const NODE_SHARES_PORTS: boolean = await listensWithReusePort();
