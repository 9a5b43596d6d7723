// Small pure pieces of src/acp: line slicing, UTF-8 limits, stderr tail, pending host requests, transcripts.
import assert from 'node:assert/strict';
import { mkdtempSync, promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { PendingHostRequests } from '../../src/acp/pendingHostRequests';
import { TailBuffer } from '../../src/acp/tailBuffer';
import { sliceLines } from '../../src/acp/textSlice';
import { FileTranscript, formatTranscriptLine, MemoryTranscript } from '../../src/acp/transcriptRecorder';
import { completeUtf8Length, utf8TailWithin } from '../../src/acp/utf8';

describe('sliceLines', () => {
  const text = 'a\nb\r\nc\nd';
  it('returns everything without line/limit', () => {
    assert.equal(sliceLines(text), text);
    assert.equal(sliceLines(text, null, null), text);
  });
  it('slices by 1-based line and limit, keeping line endings', () => {
    assert.equal(sliceLines(text, 2, 2), 'b\r\nc\n');
    assert.equal(sliceLines(text, 3), 'c\nd');
    assert.equal(sliceLines(text, null, 1), 'a\n');
    assert.equal(sliceLines(text, 4, 10), 'd');
  });
  it('handles out-of-range values leniently', () => {
    assert.equal(sliceLines(text, 9), '');
    assert.equal(sliceLines('a\n', 2), '');
    assert.equal(sliceLines(text, 0, 1), 'a\n');
    assert.equal(sliceLines(text, 1, 0), '');
  });
});

describe('UTF-8 limits', () => {
  it('keeps the tail within the limit starting on a character boundary', () => {
    const bytes = Buffer.from('aé€😀'); // 1 + 2 + 3 + 4 bytes
    assert.equal(utf8TailWithin(bytes, 100).toString(), 'aé€😀');
    assert.equal(utf8TailWithin(bytes, 4).toString(), '😀');
    assert.equal(utf8TailWithin(bytes, 6).toString(), '😀'); // 5th-from-end byte is inside €
    assert.equal(utf8TailWithin(bytes, 7).toString(), '€😀');
    assert.equal(utf8TailWithin(bytes, 3).toString(), '');
    assert.equal(utf8TailWithin(bytes, 0).length, 0);
  });
  it('finds the end of the last complete character', () => {
    const euro = Buffer.from('x€');
    assert.equal(completeUtf8Length(euro), 4);
    assert.equal(completeUtf8Length(euro.subarray(0, 3)), 1);
    assert.equal(completeUtf8Length(euro.subarray(0, 2)), 1);
    assert.equal(completeUtf8Length(Buffer.from('abc')), 3);
    assert.equal(completeUtf8Length(Buffer.alloc(0)), 0);
  });
});

describe('TailBuffer', () => {
  it('keeps exactly the most recent characters', () => {
    const tail = new TailBuffer(10);
    tail.append('abcdefgh');
    tail.append('ij');
    tail.append('klm');
    assert.equal(tail.toString(), 'defghijklm');
    tail.append('0123456789ABC');
    assert.equal(tail.toString(), '3456789ABC');
  });
});

describe('PendingHostRequests', () => {
  it('passes the host answer through', async () => {
    const pending = new PendingHostRequests();
    assert.equal(await pending.track('s', 'permission', async () => 'yes', 'cancelled'), 'yes');
    assert.equal(pending.list().length, 0);
  });

  it('answers cancelled sessions with the cancelled answer, aborts their UI and leaves others waiting', async () => {
    const pending = new PendingHostRequests();
    const signals: AbortSignal[] = [];
    const never = (signal: AbortSignal) => {
      signals.push(signal);
      return new Promise<string>(() => undefined);
    };
    const child = pending.track('child', 'permission', never, 'cancelled');
    const other = pending.track('other', 'permission', never, 'cancelled');
    assert.equal(pending.cancelSessions(['parent', 'child']), 1);
    assert.equal(await child, 'cancelled');
    assert.deepEqual(
      signals.map((signal) => signal.aborted),
      [true, false],
    );
    assert.deepEqual(
      pending.list().map((entry) => entry.sessionId),
      ['other'],
    );
    pending.abandonAll(new Error('gone'));
    await assert.rejects(other, /gone/);
  });

  it('rejects when the request is withdrawn, and survives a host that throws synchronously', async () => {
    const pending = new PendingHostRequests();
    let withdraw: ((error: Error) => void) | undefined;
    const request = pending.track('s', 'elicitation', () => new Promise<string>(() => undefined), 'cancel', (abandon) => (withdraw = abandon));
    withdraw!(new Error('withdrawn'));
    await assert.rejects(request, /withdrawn/);
    await assert.rejects(
      pending.track('s', 'permission', () => {
        throw new Error('host bug');
      }, 'x'),
      /host bug/,
    );
  });
});

describe('transcripts', () => {
  const message = { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's' } };

  it('formats {ts, dir, msg} lines', () => {
    const line = JSON.parse(formatTranscriptLine(message, 'agent->client', new Date('2026-01-02T03:04:05.000Z')));
    assert.deepEqual(line, { ts: '2026-01-02T03:04:05.000Z', dir: 'agent->client', msg: message });
  });

  it('keeps the most recent lines in memory within the bound', () => {
    const transcript = new MemoryTranscript(400);
    for (let index = 0; index < 20; index++) transcript.record({ index }, 'client->agent');
    const lines = transcript.lines().map((line) => JSON.parse(line) as { msg: { index: number } });
    assert.ok(transcript.text().length <= 400);
    assert.equal(lines.at(-1)!.msg.index, 19);
    assert.equal(transcript.droppedLines + lines.length, 20);
    assert.ok(transcript.droppedLines > 0);
  });

  it('appends to a file until the byte bound, then stops', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'subchats-transcript-'));
    const file = path.join(dir, 't.jsonl');
    const transcript = new FileTranscript(file, 300);
    for (let index = 0; index < 10; index++) transcript.record({ ...message, index }, 'agent->client');
    await transcript.close();
    const lines = (await fs.readFile(file, 'utf8')).trim().split('\n');
    assert.ok(lines.length >= 1 && lines.length < 10);
    assert.equal(transcript.truncated, true);
    assert.deepEqual(JSON.parse(lines[0]!).msg, { ...message, index: 0 });
    await fs.rm(dir, { recursive: true, force: true });
  });
});
