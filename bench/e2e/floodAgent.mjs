#!/usr/bin/env node
// A flood agent for the end-to-end bench (bench/e2e/run.mjs), speaking ACP v1 over stdio.
//
// A prompt whose text is `flood <KB>` is answered with one agent message of about <KB> KB, streamed as
// ~40-byte `agent_message_chunk`s at CHUNKS_PER_SECOND. Every MARKER_EVERY chunks, one chunk carries a marker
// with the time it was written to stdout, `⟦t=<Date.now()>⟧`; the runner records when each marker is visible
// in the chat. At evenly spaced moments during the flood it announces a subagent (`subagent_update` on the
// parent with a new child session id and `state: {state: 'running'}`) titled `flood-child-<Date.now()>`,
// the time the announcement was written; the runner records when that row is visible in the tree.
//
// Env: FLOOD_LOG  directory; after each prompt the agent writes <sessionId>-<n>.json there with every marker
//                 and child it wrote ({ markers: number[], children: number[], kb, chunks, ms }).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const CHUNK_BYTES = 40;
const CHUNKS_PER_SECOND = 1000;
const TICK_MS = 10; // chunks go out in small bursts: timers do not fire every millisecond
const MARKER_EVERY = 20; // one marker per 20 ms of stream
const PARAGRAPH_EVERY = 20; // a blank line every ~800 bytes, as a long answer has paragraphs
const logDir = process.env.FLOOD_LOG;

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const WORDS = 'the quick brown fox jumps over a lazy dog while streaming text into the chat view at speed'.split(' ');
let wordIndex = 0;
/** Plain words (no markdown syntax) padded to about `bytes`. */
function filler(bytes) {
  let text = '';
  while (text.length < bytes) text += `${WORDS[wordIndex++ % WORDS.length]} `;
  return text.slice(0, bytes);
}

let sessionCounter = 0;
let childCounter = 0;
let promptCounter = 0;

async function flood(sessionId, kb, childCount) {
  const totalChunks = Math.ceil((kb * 1024) / CHUNK_BYTES);
  const childAt = new Set();
  for (let i = 1; i <= childCount; i++) childAt.add(Math.floor((totalChunks * i) / (childCount + 1)));
  const markers = [];
  const children = [];
  const childIds = [];
  const update = (u) => send({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: u } });
  const started = Date.now();
  let chunk = 0;
  while (chunk < totalChunks) {
    // Catch up to the schedule: chunk i is due at started + i ms.
    const due = Math.min(totalChunks, Math.floor(((Date.now() - started) * CHUNKS_PER_SECOND) / 1000) + 1);
    for (; chunk < due; chunk++) {
      let text;
      if (chunk % MARKER_EVERY === 0) {
        const t = Date.now();
        markers.push(t);
        text = `⟦t=${t}⟧ `;
        text += filler(CHUNK_BYTES - text.length);
      } else text = filler(CHUNK_BYTES);
      if (chunk % PARAGRAPH_EVERY === PARAGRAPH_EVERY - 1) text = `${text.trimEnd()}\n\n`;
      update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
      if (childAt.has(chunk)) {
        const childId = `flood-child-session-${++childCounter}`;
        const t = Date.now();
        children.push(t);
        childIds.push(childId);
        update({ sessionUpdate: 'subagent_update', sessionId: childId, title: `flood-child-${t}`, state: { state: 'running' } });
      }
    }
    await delay(TICK_MS);
  }
  for (const childId of childIds) update({ sessionUpdate: 'subagent_update', sessionId: childId, state: { state: 'idle', stopReason: 'end_turn' } });
  const result = { kb, chunks: totalChunks, ms: Date.now() - started, markers, children };
  if (logDir) writeFileSync(join(logDir, `${sessionId}-${++promptCounter}.json`), JSON.stringify(result));
  return result;
}

async function handleRequest({ id, method, params }) {
  const reply = (result) => send({ jsonrpc: '2.0', id, result });
  switch (method) {
    case 'initialize':
      return reply({
        protocolVersion: 1,
        agentCapabilities: { loadSession: false, promptCapabilities: {}, sessionCapabilities: { subagents: {} } },
        authMethods: [],
        agentInfo: { name: 'flood-agent', version: '1.0.0' },
      });
    case 'session/new':
      return reply({ sessionId: `flood-session-${++sessionCounter}` });
    case 'session/cancel':
      return reply({});
    case 'session/prompt': {
      const text = params.prompt?.find((block) => block.type === 'text')?.text ?? '';
      const match = /flood\s+(\d+)(?:\s+children\s+(\d+))?/.exec(text);
      const kb = match ? Number(match[1]) : 20;
      const childCount = match?.[2] !== undefined ? Number(match[2]) : Math.max(2, Math.round(kb / 40));
      await flood(params.sessionId, kb, childCount);
      return reply({ stopReason: 'end_turn' });
    }
    default:
      return send({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } });
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  if (message.id !== undefined && message.method !== undefined) void handleRequest(message);
});
