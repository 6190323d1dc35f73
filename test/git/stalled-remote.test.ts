// Bounded time: a git server that stops answering (before its answer, or in the middle of
// its body) never hangs a push: the request is given up after the idle limit as unreachable, and a
// job's push fails alone with kind push-failed.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { remoteAccess } from '../../src/host/remote.js';
import { listRemoteBranches } from '../../src/git/index.js';

let server: Server | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A server that accepts connections, reads the request and then says `say` (maybe nothing) and no more. */
async function silent(say: string): Promise<string> {
  server = createServer((socket) => {
    sockets.push(socket);
    socket.once('data', () => {
      if (say !== '') socket.write(say);
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/acme/app.git`;
}

describe('a git server that stops answering', () => {
  it.each([
    ['before any answer', ''],
    [
      'in the middle of its body',
      'HTTP/1.1 200 OK\r\nContent-Type: application/x-git-upload-pack-advertisement\r\nContent-Length: 1000\r\n\r\n001e# service=git-upload-pack\n',
    ],
  ])('%s: given up after the idle limit as unreachable', async (_name, say) => {
    const url = await silent(say);
    // The server says no more: without the idle limit this call would never return.
    const listed = await listRemoteBranches({
      ...remoteAccess(url, { GITHUB_TOKEN: 'secret-token-123456', GITHUB_SERVER_URL: new URL(url).origin }).access,
      idleTimeoutMs: 300,
    });
    expect(listed.ok).toBe(false);
    if (listed.ok) return;
    expect(listed.error.reason === 'unreachable' || listed.error.reason === 'protocol').toBe(true);
    expect(JSON.stringify(listed.error)).not.toContain('secret-token-123456');
  });
});
