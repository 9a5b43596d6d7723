// NDJSON framing and the wire tap, over in-memory streams.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import type { Message } from 'vscode-jsonrpc/node';
import { NdjsonMessageReader, NdjsonMessageWriter, parseWireLine } from '../../src/acp/ndjson';
import { waitFor } from '../fixtures/fake-agents/harness';

function readerOver(maxLineLength?: number) {
  const input = new PassThrough();
  const events: string[] = [];
  const messages: Record<string, unknown>[] = [];
  const invalid: { raw: string; reason: string }[] = [];
  const reader = new NdjsonMessageReader(
    input,
    {
      tap: (message) => events.push(`tap:${JSON.stringify(message)}`),
      onInvalidLine: (raw, reason) => invalid.push({ raw, reason }),
    },
    maxLineLength,
  );
  let closed = false;
  reader.onClose(() => (closed = true));
  reader.listen((message) => {
    events.push(`dispatch:${JSON.stringify(message)}`);
    messages.push(message as unknown as Record<string, unknown>);
  });
  return { input, events, messages, invalid, isClosed: () => closed };
}

describe('parseWireLine', () => {
  it('classifies requests, notifications and responses with string, number and null ids', () => {
    assert.equal(parseWireLine('{"jsonrpc":"2.0","id":"a","method":"m"}').kind, 'message');
    assert.equal(parseWireLine('{"jsonrpc":"2.0","id":7,"method":"m","params":{}}').kind, 'message');
    assert.equal(parseWireLine('{"jsonrpc":"2.0","method":"m"}').kind, 'message');
    assert.equal(parseWireLine('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}').kind, 'message');
    assert.equal(parseWireLine('{"jsonrpc":"2.0","id":1,"result":null}').kind, 'message');
  });

  it('normalises a numeric string response id for matching but keeps the raw message', () => {
    const parsed = parseWireLine('{"jsonrpc":"2.0","id":"3","result":{}}');
    assert.equal(parsed.kind, 'message');
    if (parsed.kind !== 'message') return;
    assert.equal((parsed.message as unknown as { id: unknown }).id, 3);
    assert.equal((parsed.raw as { id: unknown }).id, '3');
  });

  it('explains what is wrong with invalid lines', () => {
    const reason = (line: string) => {
      const parsed = parseWireLine(line);
      return parsed.kind === 'invalid' ? parsed.reason : parsed.kind;
    };
    assert.match(reason('hello'), /not JSON/);
    assert.match(reason('42'), /not a JSON-RPC object/);
    assert.match(reason('{"method":5}'), /method is not a string/);
    assert.match(reason('{"id":null,"method":"m"}'), /request id/);
    assert.match(reason('{"id":{},"result":1}'), /response id/);
    assert.match(reason('{"id":1,"error":"bad"}'), /numeric code/);
    assert.match(reason('{"id":1}'), /neither/);
    assert.equal(reason('[]'), 'batch');
  });
});

describe('NdjsonMessageReader', () => {
  it('taps each message before dispatching it, in wire order, across chunk boundaries and split UTF-8', async () => {
    const { input, events, messages } = readerOver();
    const line1 = Buffer.from('{"jsonrpc":"2.0","method":"a","params":{"t":"héllo ✓"}}\r\n');
    input.write(line1.subarray(0, 40));
    input.write(line1.subarray(40, 41)); // inside the two-byte é? at least mid-line
    input.write(line1.subarray(41));
    input.write('{"jsonrpc":"2.0","id":1,"result":{}}\n\n   \n{"jsonrpc":"2.0","method":"b"}');
    input.end();
    await waitFor(() => messages.length === 3, 'three messages');
    assert.equal((messages[0]!.params as { t: string }).t, 'héllo ✓');
    assert.deepEqual(
      events.map((event) => event.split(':')[0]),
      ['tap', 'dispatch', 'tap', 'dispatch', 'tap', 'dispatch'],
    );
  });

  it('decodes a multi-byte character split between chunks', async () => {
    const { input, messages } = readerOver();
    const bytes = Buffer.from('{"jsonrpc":"2.0","method":"€"}\n');
    const euro = bytes.indexOf(0xe2);
    input.write(bytes.subarray(0, euro + 1));
    input.write(bytes.subarray(euro + 1));
    await waitFor(() => messages.length === 1, 'one message');
    assert.equal(messages[0]!.method, '€');
  });

  it('reports garbage and over-long lines, skips them and keeps reading', async () => {
    const { input, messages, invalid, isClosed } = readerOver(100);
    input.write('npm WARN something\n');
    input.write(`{"jsonrpc":"2.0","method":"long","params":"${'x'.repeat(150)}`);
    input.write(`${'y'.repeat(50)}"}\n`);
    input.write('{"jsonrpc":"2.0","method":"ok"}\n');
    input.end();
    await waitFor(isClosed, 'close');
    assert.deepEqual(
      messages.map((message) => message.method),
      ['ok'],
    );
    assert.equal(invalid.length, 2);
    assert.match(invalid[0]!.reason, /not JSON/);
    assert.match(invalid[1]!.reason, /longer than 100 bytes/);
  });
  it('skips an over-long line spread over many chunks (and its newline in a later chunk), then reads on', async () => {
    const { input, messages, invalid, isClosed } = readerOver(64);
    input.write('{"jsonrpc":"2.0","method":"a"}\n{"jsonrpc":"2.0","method":"big","params":"');
    for (let i = 0; i < 20; i++) input.write('z'.repeat(10));
    input.write('"}');
    input.write('\n{"jsonrpc":"2.0","method":"b"}\n{"jsonrpc":"2.0",');
    input.write('"method":"c"}\n');
    input.end();
    await waitFor(isClosed, 'close');
    assert.deepEqual(
      messages.map((message) => message.method),
      ['a', 'b', 'c'],
    );
    assert.equal(invalid.length, 1);
    assert.match(invalid[0]!.reason, /longer than 64 bytes; dropped/);
    assert.match(invalid[0]!.raw, /^\{"jsonrpc":"2.0","method":"big"/);
  });

  it('counts the cap in bytes and keeps a line exactly at the cap', async () => {
    const line = '{"jsonrpc":"2.0","method":"é"}';
    const { input, messages, invalid, isClosed } = readerOver(Buffer.byteLength(line));
    input.write(`${line}\n`);
    input.write(`${line.replace('é', 'éé')}\n`);
    input.end();
    await waitFor(isClosed, 'close');
    assert.deepEqual(
      messages.map((message) => message.method),
      ['é'],
    );
    assert.equal(invalid.length, 1);
  });

  it('drops an endless line without a newline when the stream ends', async () => {
    const { input, messages, invalid, isClosed } = readerOver(100);
    for (let i = 0; i < 50; i++) input.write('x'.repeat(40));
    input.end();
    await waitFor(isClosed, 'close');
    assert.equal(messages.length, 0);
    assert.equal(invalid.length, 1);
  });
});

describe('NdjsonMessageWriter', () => {
  it('writes one JSON line per message and taps it first', async () => {
    const output = new PassThrough();
    const tapped: string[] = [];
    const writer = new NdjsonMessageWriter(output, { tap: (message, direction) => tapped.push(`${direction}:${(message as { method: string }).method}`) });
    let written = '';
    output.on('data', (chunk: Buffer) => (written += chunk.toString()));
    await writer.write({ jsonrpc: '2.0', method: 'first' } as Message);
    await writer.write({ jsonrpc: '2.0', id: 'x', method: 'second', params: { s: 'a\nb' } } as Message);
    assert.deepEqual(tapped, ['client->agent:first', 'client->agent:second']);
    assert.equal(written, '{"jsonrpc":"2.0","method":"first"}\n{"jsonrpc":"2.0","id":"x","method":"second","params":{"s":"a\\nb"}}\n');
  });

  it('rejects (and taps nothing) after the stream ended', async () => {
    const output = new PassThrough();
    const tapped: unknown[] = [];
    const writer = new NdjsonMessageWriter(output, { tap: (message) => tapped.push(message) });
    writer.end();
    await assert.rejects(writer.write({ jsonrpc: '2.0', method: 'late' } as Message), /closed/);
    assert.equal(tapped.length, 0);
  });
});
