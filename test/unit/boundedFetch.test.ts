// Downloads for Add Agent: https only (plain http to 127.0.0.1/localhost for a local registry), bounded in size
// and time, and a redirect to a refused URL is refused too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { boundedFetch, refusedUrl } from '../../src/host/registry/boundedFetch';

test('only https, or http to the loopback address', () => {
  assert.equal(refusedUrl('https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json'), undefined);
  assert.equal(refusedUrl('http://127.0.0.1:8080/r.json'), undefined);
  assert.equal(refusedUrl('http://localhost/r.json'), undefined);
  assert.match(refusedUrl('http://example.com/r.json') ?? '', /only https/);
  assert.match(refusedUrl('file:///etc/passwd') ?? '', /only https/);
  assert.match(refusedUrl('not a url') ?? '', /is not a URL/);
});

test('a local download is read; past the size bound, a slow answer, an error status or a redirect out are refused', async () => {
  const server = createServer((request, response) => {
    if (request.url === '/small') response.end('hello');
    else if (request.url === '/big') response.end(Buffer.alloc(5000));
    else if (request.url === '/slow') setTimeout(() => response.end('late'), 2000);
    else if (request.url === '/away') response.writeHead(302, { location: 'http://example.com/x' }).end();
    else if (request.url === '/hop') response.writeHead(301, { location: '/small' }).end();
    else response.writeHead(404, 'Not Found').end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const limits = { timeoutMs: 500, maxBytes: 1000 };
  try {
    assert.equal((await boundedFetch(`${base}/small`, limits)).toString(), 'hello');
    await assert.rejects(boundedFetch(`${base}/big`, limits), /larger than/);
    await assert.rejects(boundedFetch(`${base}/slow`, limits), /no answer within 0.5 s/);
    await assert.rejects(boundedFetch(`${base}/missing`, limits), /answered 404/);
    assert.equal((await boundedFetch(`${base}/hop`, limits)).toString(), 'hello', 'a redirect to an allowed URL is followed');
    await assert.rejects(boundedFetch(`${base}/away`, limits), /redirected to http:\/\/example.com\/x, which is refused: only https/);
    await assert.rejects(boundedFetch('http://example.com/', limits), /only https/);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
