// A remote that redirects without end: the call gives up after ten hops and says so as the remote's
// protocol failure (a value the caller words), never as a bug of scion's.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listRemoteBranches } from '../../src/git/index.js';
import { remoteAccess } from '../../src/host/remote.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

describe('a git server that redirects forever', () => {
  it('is a protocol failure after ten redirects', async () => {
    let hops = 0;
    server = createServer((req, res) => {
      hops++;
      res.writeHead(302, { location: `/loop/${hops}/app.git/info/refs?service=git-upload-pack` }).end();
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/acme/app.git`;
    const listed = await listRemoteBranches(remoteAccess(url, {}).access);
    expect(listed).toEqual({ ok: false, error: { reason: 'protocol', status: null, detail: 'the server redirected more than 10 times' } });
    // The first request and ten redirects followed; the eleventh is not.
    expect(hops).toBe(11);
  });
});
