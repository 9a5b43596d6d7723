// Bounding a stored transcript: the initialize exchange (which ACP version the rest speaks) always stays.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rotateTranscript } from '../../src/acp/transcriptRotation';
import { fixtureText } from './support/storeFixtures';
import { replayText, toReplaySnapshot } from '../../src/store/replayReport';
import { SessionStore } from '../../src/store/sessionStore';

test('a v2 transcript cut to a fraction keeps its initialize exchange, so it is still read as v2', () => {
  const text = fixtureText('traces', 'claude2-v2-single.jsonl');
  const { text: cut, droppedBytes } = rotateTranscript(text, 2000);
  assert.ok(droppedBytes > text.length / 2, 'most of it went');
  const lines = cut.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { msg: { method?: string; id?: number; result?: { protocolVersion?: number } } });
  assert.equal(lines[0]!.msg.method, 'initialize');
  assert.equal(lines[1]!.msg.result?.protocolVersion, 2);
  const store = new SessionStore({ now: () => 0 });
  replayText(store, cut);
  assert.equal(store.protocolVersion, 2);
  assert.ok(toReplaySnapshot(store).sessions.length > 0);
});
