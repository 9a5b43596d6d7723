// session/list entries nest under their listed parents (draft fields), leniently.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nestListedSessions, readListedSessions } from '../../src/acp/sessionListTree';

test('children nest under listed parents in the agent order; unknown parents and cycles become roots', () => {
  const listed = readListedSessions([
    { sessionId: 'b-child', parentSessionId: 'a', subagentId: 'explorer', parentToolCallId: 't1', title: 'Explorer' },
    { sessionId: 'a', title: 'Main', cwd: '/w' },
    { sessionId: 'grand', _meta: { parentSessionId: 'b-child' } },
    { sessionId: 'orphan', parentSessionId: 'not-listed' },
    { sessionId: 'x', parentSessionId: 'y' },
    { sessionId: 'y', parentSessionId: 'x' },
    { title: 'no id' },
    'garbage',
  ]);
  assert.equal(listed.length, 6);
  const rows = nestListedSessions(listed).map((r) => `${'  '.repeat(r.depth)}${r.sessionId}`);
  assert.deepEqual(rows, ['a', '  b-child', '    grand', 'orphan', 'x', 'y']);
  assert.equal(listed[0]!.subagentId, 'explorer');
});
