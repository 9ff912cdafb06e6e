import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';

/**
 * A TCP server that speaks just enough of the Postgres protocol to refuse a login: it answers the
 * client's startup message with one ErrorResponse (e.g. 28P01, what a real server sends for a wrong
 * password, which the local test server, trusting every login, never does), and a TLS request with
 * "not supported".
 */
export async function startRefusingPostgres(
  sqlState: string,
  message: string,
): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    const refuse = () => {
      const fields = Buffer.concat([
        field('S', 'FATAL'),
        field('V', 'FATAL'),
        field('C', sqlState),
        field('M', message),
        Buffer.from([0]),
      ]);
      const header = Buffer.alloc(5);
      header.write('E', 0);
      header.writeInt32BE(fields.length + 4, 1);
      socket.end(Buffer.concat([header, fields]));
    };
    socket.once('data', (first) => {
      // An SSLRequest (length 8, code 80877103): answer "no TLS here", then refuse the startup after it.
      if (first.length === 8 && first.readInt32BE(4) === 80877103) {
        socket.write('N');
        socket.once('data', refuse);
      } else {
        refuse();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function field(code: string, value: string): Buffer {
  return Buffer.concat([Buffer.from(code), Buffer.from(value), Buffer.from([0])]);
}
