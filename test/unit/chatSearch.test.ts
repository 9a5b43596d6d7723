// Search Chats over recorded transcripts (a Claude chat with a subagent, a Codex chat, a qwen-code chat): what
// matches by words, agent, date and quoted phrases, the snippet shown, and the bounds on results and reading.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { searchChats, type SearchedConnection } from '../../src/history/chatSearch';
import { replayFixture, type FixtureFolder } from './support/storeFixtures';

function connection(id: string, agentName: string, folder: FixtureFolder, fixture: string, startedAt = 0): SearchedConnection {
  return { id, agentName, startedAt, sessions: replayFixture(folder, fixture).store.listSessions() };
}

// Claude and Codex recorded on 2026-11-30 (UTC); the qwen fixture has no times, so its connection's start counts.
const CONNECTIONS = [
  connection('c1', 'Claude Code', 'traces', 'claude-single.jsonl'),
  connection('c2', 'Codex', 'traces', 'codex-permission.jsonl'),
  connection('c3', 'qwen-code', 'dialects', 'qwen-code-0.24.4.jsonl', Date.UTC(2026, 11, 1, 8)),
];

const search = (query: string, limits = {}) => searchChats(CONNECTIONS, query, { utc: true, limits });
const titles = (query: string) => search(query).matches.map((m) => `${m.connectionId}:${m.title}`);

test('with nothing typed, every chat is listed, newest first, with how it began', () => {
  const { matches, incomplete } = search('');
  assert.equal(incomplete, false);
  assert.equal(matches.length, CONNECTIONS.reduce((n, c) => n + c.sessions.length, 0));
  assert.deepEqual(matches.map((m) => m.connectionId).slice(0, 2), ['c3', 'c3'], 'the qwen chats began last');
  const sorted = matches.map((m) => m.startedAt);
  assert.deepEqual(sorted, [...sorted].sort((a, b) => b - a));
  const codex = matches.find((m) => m.connectionId === 'c2' && m.parentTitle === undefined);
  assert.match(codex?.snippet ?? '', /^SCENARIO:permission WORKSPACE=\/home\/user\/project Please delegate this to sub-agents/);
});

test('a word from a transcript finds the chats that say it, with the words around it', () => {
  const found = search('second line').matches;
  assert.deepEqual(found.map((m) => m.connectionId).sort(), ['c1', 'c1']);
  const child = found.find((m) => m.parentTitle);
  assert.equal(child?.title, 'Read notes file');
  assert.match(child!.parentTitle!, /^SCENARIO:single/);
  assert.match(child!.snippet!, /second line/);
  assert.ok(!child!.snippet!.includes('\n'), 'one line');
  assert.deepEqual(titles('middleware re-validate'), [], 'thoughts are not searched (only what was said and done)');
  assert.deepEqual(titles('Checking MIDDLEWARE'), ['c3:Find token validation'], 'case does not matter');
});

test("an agent's name finds all of its chats; the title finds a chat too", () => {
  assert.deepEqual(new Set(search('codex').matches.map((m) => m.connectionId)), new Set(['c2']));
  assert.equal(search('codex').matches.length, CONNECTIONS[1]!.sessions.length);
  // The subagent by its title, its parent by the call that started it.
  assert.deepEqual(titles('token validation'), ['c3:Session 1', 'c3:Find token validation']);
});

test('a date finds the chats begun that day, month or year', () => {
  assert.deepEqual(new Set(search('2026-11-30').matches.map((m) => m.connectionId)), new Set(['c1', 'c2']));
  assert.deepEqual(new Set(search('2026-12-1').matches.map((m) => m.connectionId)), new Set(['c3']), 'a day without its zero');
  assert.equal(search('2026-11').matches.length, CONNECTIONS[0]!.sessions.length + CONNECTIONS[1]!.sessions.length);
  assert.equal(search('2025-01-01').matches.length, 0);
});

test('every word must match somewhere; a quoted phrase is one term; the query is never a pattern', () => {
  assert.deepEqual(new Set(search('codex notes.txt').matches.map((m) => m.connectionId)), new Set(['c2']));
  assert.equal(search('claude 2026-12-01').matches.length, 0, 'no Claude chat began that day');
  assert.ok(search('"hello from notes.txt"').matches.length > 0);
  assert.equal(search('"notes.txt hello"').matches.length, 0);
  assert.equal(search('notes(txt').matches.length, 0);
  assert.equal(search('.*').matches.length, 0);
});

test('results and reading are bounded, and the result says when it stopped short', () => {
  const few = search('', { maxResults: 2 });
  assert.equal(few.matches.length, 2);
  assert.equal(few.incomplete, true);
  // A bound smaller than the first transcript: the text of the others is not read, titles still match.
  const short = search('second line', { maxScannedChars: 10 });
  assert.deepEqual(short.matches, []);
  assert.equal(short.incomplete, true);
  assert.deepEqual(search('token validation', { maxScannedChars: 10 }).matches.map((m) => m.title), ['Find token validation']);
});
