// Browse Agent Sessions: a listed session is named by its title, else by what the client already calls it,
// else by words (never by its id); children the client knows are nested under their parent even when the
// agent's list says nothing about parents.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nestListedSessions, readListedSessions } from '../../src/acp/sessionListTree';
import { knownSessionsOf, listedSessionName } from '../../src/acp/listedSessionNames';
import { replayFixture, Wire, announce } from './support/storeFixtures';

const OPENCODE_ROOT = 'ses_dcf2a59e4ffeihgR8Z4F75fiM2';
const OPENCODE_CHILD = 'ses_dcf2a54e9ffeUvlJEKFZguU2qh';
const NOW = Date.parse('2026-12-01T12:00:00.000Z');

test("opencode's untitled child is named as the tree names it and listed under its parent", () => {
  const { store } = replayFixture('recorded-new', 'opencode-single.jsonl');
  // As opencode lists them: newest first, the child with no title and no parent field.
  const listed = readListedSessions([
    { sessionId: OPENCODE_CHILD, cwd: '/home/user/project', updatedAt: '2026-12-01T09:00:00.000Z' },
    { sessionId: OPENCODE_ROOT, cwd: '/home/user/project', title: 'Delegate reading notes', updatedAt: '2026-12-01T08:59:00.000Z' },
  ]);
  const known = knownSessionsOf(store.listSessions());
  const rows = nestListedSessions(listed, known);
  assert.deepEqual(
    rows.map((row) => [row.depth, listedSessionName(row, known, NOW), row.rootSessionId]),
    [
      [0, 'Delegate reading notes', OPENCODE_ROOT],
      [1, 'Read notes file', OPENCODE_ROOT],
    ],
  );
});

test('a child the client saw announced (codex: child id = its thread id) nests under its parent; the agent title wins', () => {
  const wire = new Wire().initialize().newSession('thread-root');
  wire.update('thread-root', announce('thread-child', { title: 'Explorer', state: 'running' }));
  const known = knownSessionsOf(wire.store.listSessions());
  const rows = nestListedSessions(readListedSessions([{ sessionId: 'thread-child', title: 'Look around' }, { sessionId: 'thread-root', title: 'Main' }]), known);
  assert.deepEqual(rows.map((row) => [row.sessionId, row.depth, listedSessionName(row, known, NOW)]), [
    ['thread-root', 0, 'Main'],
    ['thread-child', 1, 'Look around'],
  ]);
});

test('a session nobody named is "Untitled session" with how long ago it changed, never its id', () => {
  const known = knownSessionsOf([]);
  const [dated, undated] = nestListedSessions(readListedSessions([{ sessionId: 'ses_x', updatedAt: '2026-12-01T09:00:00.000Z' }, { sessionId: 'ses_y' }]), known);
  assert.equal(listedSessionName(dated!, known, NOW), 'Untitled session · 3h 0m ago');
  assert.equal(listedSessionName(undated!, known, NOW), 'Untitled session');
});
