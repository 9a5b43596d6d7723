// Siblings with the same name under one parent are told apart: the first keeps its label, later twins get
// " (2)", " (3)" in order of appearance, and no label moves when another sibling appears or goes away.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionStore } from '../../src/store/sessionStore';
import { fixtureText, replayFixture, replayStepwise, Wire, announce } from './support/storeFixtures';

const ROOT = '59ba9b83-2413-4009-83ba-010958940067';
const GEMINI_LABEL = "Delegating to agent 'codebase_investigator'";

test('two parallel gemini invoke_agent children get distinct labels (tree, chat and replay --json read the same one)', () => {
  const { store, snapshot } = replayFixture('written', 'gemini-parallel-twins.jsonl');
  const children = store.getSession(ROOT)!.childIds.map((id) => store.getSession(id)!);
  assert.deepEqual(children.map((c) => c.label), [GEMINI_LABEL, `${GEMINI_LABEL} (2)`]);
  assert.deepEqual(snapshot.sessions.filter((s) => s.parentId === ROOT).map((s) => s.label), [GEMINI_LABEL, `${GEMINI_LABEL} (2)`]);
});

test('a twin label never changes once given, whatever comes later in the trace', () => {
  const first = new Map<string, string>();
  replayStepwise('written', 'gemini-parallel-twins.jsonl', (store) => {
    for (const session of store.listSessions()) {
      if (session.parentId === null) continue; // a root is named by its first prompt once sent
      const seen = first.get(session.id);
      if (seen === undefined) first.set(session.id, session.label);
      else assert.equal(session.label, seen, `${session.id} was "${seen}", now "${session.label}"`);
    }
  });
  assert.equal(first.size, 2);
});

test('a third twin gets (3) and leaves the first two as they were; another name and another parent start over', () => {
  const wire = new Wire().initialize().newSession('root');
  const spawn = (parent: string, child: string, title: string) => wire.update(parent, announce(child, { title, state: 'running' }));
  spawn('root', 'a', 'Explore');
  spawn('root', 'b', 'Explore');
  const before = ['a', 'b'].map((id) => wire.session(id).label);
  spawn('root', 'c', 'Explore');
  spawn('root', 'd', 'Review');
  spawn('b', 'b1', 'Explore');
  assert.deepEqual(before, ['Explore', 'Explore (2)']);
  assert.deepEqual(['a', 'b', 'c', 'd', 'b1'].map((id) => wire.session(id).label), ['Explore', 'Explore (2)', 'Explore (3)', 'Review', 'Explore']);
});

test('a sibling renamed to a twin\'s name takes the next number; the twin it joins keeps its label', () => {
  const wire = new Wire().initialize().newSession('root');
  wire.update('root', announce('a', { title: 'Scout', state: 'running' }));
  wire.update('root', announce('b', { title: 'Explore', state: 'running' }));
  wire.update('root', announce('a', { title: 'Explore', state: 'running' }));
  assert.deepEqual(['a', 'b'].map((id) => wire.session(id).label), ['Explore (2)', 'Explore']);
});

test('an opencode twin that is loaded as its own session keeps its number in the same row', () => {
  // opencode-load-child with a first, identical task (another call id and child id) before the recorded one.
  const lines = fixtureText('recorded-new', 'opencode-load-child.jsonl').split('\n');
  const task = lines.slice(6, 10).map((line) => line.replaceAll('call_main_003', 'call_main_002').replaceAll('ses_dcf28a82dffeZVqjJtyAbnJSuJ', 'ses_dcf28a82dffeTwinTwinTwinTw'));
  const store = new SessionStore({ now: () => 0 });
  [...lines.slice(0, 6), ...task, ...lines.slice(6)].forEach((text, i) => store.ingestLine(text, i + 1));
  const root = store.getSession('ses_dcf28ad0bffef3tOULXtEtKPBm')!;
  assert.deepEqual(root.childIds.map((id) => [id, store.getSession(id)!.label]), [
    ['ses_dcf28ad0bffef3tOULXtEtKPBm#call_main_002', 'Read notes file'],
    ['ses_dcf28a82dffeZVqjJtyAbnJSuJ', 'Read notes file (2)'],
  ]);
});
