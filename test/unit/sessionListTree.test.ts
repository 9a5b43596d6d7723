// session/list entries nest under their listed parents (draft fields), leniently.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_LISTED_SESSIONS, nestListedSessions, readListedSessions } from '../../src/acp/sessionListTree';

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

/** A page whose parent links form one chain: s0 <- s1 <- ... <- s(n-1), listed deepest first. */
function chain(n: number): { sessionId: string; parentSessionId?: string }[] {
  const page: { sessionId: string; parentSessionId?: string }[] = [];
  for (let i = n - 1; i >= 0; i--) page.push(i === 0 ? { sessionId: 's0' } : { sessionId: `s${i}`, parentSessionId: `s${i - 1}` });
  return page;
}

test('a 16,000-deep parent chain nests without recursion: every row once, depth and top ancestor right', () => {
  const rows = nestListedSessions(readListedSessions(chain(16_000), Infinity));
  assert.equal(rows.length, 16_000);
  for (let i = 0; i < rows.length; i++) {
    assert.equal(rows[i]!.sessionId, `s${i}`);
    assert.equal(rows[i]!.depth, i);
    assert.equal(rows[i]!.rootSessionId, 's0');
  }
});

test('a 16,000-long parent cycle (and a chain hanging off it) becomes roots without looping', () => {
  const page = [];
  for (let i = 0; i < 16_000; i++) page.push({ sessionId: `c${i}`, parentSessionId: `c${(i + 1) % 16_000}` });
  page.push({ sessionId: 'tail', parentSessionId: 'c5' });
  const rows = nestListedSessions(readListedSessions(page, Infinity));
  assert.equal(rows.length, 16_001);
  const tail = rows.find((r) => r.sessionId === 'tail')!;
  assert.equal(tail.depth, 1);
  assert.equal(tail.rootSessionId, 'c5');
  assert.ok(rows.filter((r) => r.sessionId !== 'tail').every((r) => r.depth === 0 && r.rootSessionId === r.sessionId));
});

test('a session id listed twice is shown once (the first), so its children are not repeated', () => {
  const rows = nestListedSessions(
    readListedSessions([
      { sessionId: 'a', title: 'first' },
      { sessionId: 'a', title: 'again' },
      { sessionId: 'b', parentSessionId: 'a' },
      { sessionId: 'b', parentSessionId: 'a' },
      { sessionId: 'c', parentSessionId: 'b' },
    ]),
  );
  assert.deepEqual(
    rows.map((r) => [r.sessionId, r.title, r.depth]),
    [
      ['a', 'first', 0],
      ['b', null, 1],
      ['c', null, 2],
    ],
  );
});

test('reading a page is bounded: at most `limit` entries are read, and a page that is not an array reads as none', () => {
  assert.equal(readListedSessions(chain(20_000), 5_000).length, 5_000);
  assert.equal(readListedSessions(chain(20_000)).length, MAX_LISTED_SESSIONS);
  assert.deepEqual(readListedSessions('s'.repeat(100)), []);
});
