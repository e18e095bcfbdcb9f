import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HarnessError } from '../errors/harness-error.js';

/** Listens on host:port and returns the bound address, `http://host:port`; a port in use or a bad address is a harness error. */
export async function listen(server: Server, host: string, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException): void => {
      reject(
        err.code === 'EADDRINUSE'
          ? new HarnessError('E_PORT_IN_USE', `webhook receiver cannot listen on ${host}:${port}: port already in use`, { cause: err })
          : new HarnessError('E_USAGE', `webhook receiver cannot listen on ${host}:${port}: ${err.message}`, { cause: err }),
      );
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  // Errors after listening (a socket torn down mid-request) must not crash the harness.
  server.on('error', () => undefined);
  const addr = server.address() as AddressInfo;
  return `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`;
}
