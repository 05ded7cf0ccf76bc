import { rm } from 'node:fs/promises';
import { connect, createServer, type Socket } from 'node:net';

export interface LoopbackRelay {
  close(): Promise<void>;
}

/**
 * X2: the host side of one forward: a unix socket (bound into the sandbox) whose every
 * connection is piped to `target` over TCP. Inside the sandbox a listener on 127.0.0.1 feeds it.
 */
export async function openLoopbackRelay(
  socketPath: string,
  target: { host: string; port: number },
): Promise<LoopbackRelay> {
  const sockets = new Set<Socket>();
  const server = createServer((inner) => {
    const outer = connect(target.port, target.host);
    sockets.add(inner).add(outer);
    const drop = () => {
      inner.destroy();
      outer.destroy();
      sockets.delete(inner);
      sockets.delete(outer);
    };
    inner.on('error', drop).on('close', drop);
    outer.on('error', drop).on('close', drop);
    inner.pipe(outer);
    outer.pipe(inner);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  return {
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(socketPath, { force: true });
    },
  };
}
