// A long-quiet subagent of an agent that never forwards its questions (opencode, Gemini CLI): the tree's
// tooltip and the chat say so in the same words, from timestamps only; the state stays what was reported.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LONG_QUIET_MS, longQuietNotice } from '../../src/presentation';
import type { SessionView } from '../../src/store/model';
import { SessionStore } from '../../src/store/sessionStore';
import { questionsNotForwardedBy } from '../../src/store/subagentDialects';
import { sessionHeader } from '../../src/webviews/chatProjection';
import { sessionItemOf } from '../../src/views/sessionTreeModel';
import { fixtureText, type FixtureFolder } from './support/storeFixtures';

/** Replays a recording up to (and including) the first line matching `until`. */
function replayUntil(folder: FixtureFolder, name: string, until: RegExp): SessionStore {
  const store = new SessionStore({ now: () => 0 });
  const lines = fixtureText(folder, name).split('\n');
  const last = lines.findIndex((line) => until.test(line));
  assert.ok(last >= 0, `${name} has a line matching ${until}`);
  lines.slice(0, last + 1).forEach((text, i) => store.ingestLine(text, i + 1));
  return store;
}

function onlyChild(store: SessionStore): SessionView {
  const children = store.listSessions().filter((session) => session.parentId !== null);
  assert.equal(children.length, 1);
  return children[0]!;
}

const runtimeOf = (store: SessionStore, name: string) => ({ id: 'c1', agent: { id: name, name, command: name }, live: true, status: 'ready' as const, store });

for (const [file, agent, running] of [
  ['opencode-single.jsonl', 'opencode', /"status":"in_progress"/],
  ['gemini-single.jsonl', 'Gemini CLI', /"toolCallId":"invoke_agent/],
] as const) {
  test(`${agent}: a running child quiet for ${LONG_QUIET_MS / 1000} s or more gets the notice in the tooltip and the chat header`, () => {
    const store = replayUntil('recorded-new', file, running);
    const child = onlyChild(store);
    assert.equal(child.state.state, 'running');
    assert.equal(questionsNotForwardedBy(store, child), agent);
    const history = child.stateHistory.length;

    const quiet = child.updatedAt + 2 * 60_000 + 5_000;
    const expected = `No news for 2 min. ${agent} does not forward a subagent's questions; if it is waiting on a permission, answer it in ${agent} itself.`;
    const header = sessionHeader(store, child);
    assert.equal(header.questionsNotForwardedBy, agent);
    assert.equal(longQuietNotice(header, quiet), expected, 'the chat reads the header');
    const tooltip = sessionItemOf(runtimeOf(store, agent), child.id, quiet)!.tooltip;
    assert.ok(tooltip.includes(expected.replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`)), tooltip);

    assert.equal(longQuietNotice(header, child.updatedAt + LONG_QUIET_MS - 1), undefined, 'not before the threshold');
    assert.ok(!sessionItemOf(runtimeOf(store, agent), child.id, child.updatedAt + 1000)!.tooltip.includes('No news'));
    assert.equal(store.getSession(child.id)!.state.state, 'running', 'silence changes no state');
    assert.equal(store.getSession(child.id)!.stateHistory.length, history);
  });

  test(`${agent}: once the child finished, no notice however long ago`, () => {
    const store = new SessionStore({ now: () => 0 });
    fixtureText('recorded-new', file).split('\n').forEach((text, i) => store.ingestLine(text, i + 1));
    const child = onlyChild(store);
    assert.notEqual(child.state.state, 'running');
    assert.equal(longQuietNotice(sessionHeader(store, child), child.updatedAt + 3_600_000), undefined);
  });
}

test('children whose questions do reach the client (Claude, qwen, Copilot) never get the notice', () => {
  for (const [folder, file] of [
    ['traces', 'claude-single.jsonl'],
    ['traces', 'qwen-single.jsonl'],
    ['traces', 'claude2-single.jsonl'],
    ['recorded-new', 'copilot-single.jsonl'],
  ] as const) {
    const store = new SessionStore({ now: () => 0 });
    fixtureText(folder, file).split('\n').forEach((text, i) => store.ingestLine(text, i + 1));
    for (const session of store.listSessions()) assert.equal(questionsNotForwardedBy(store, session), null, `${file}: ${session.label}`);
  }
});

test('the notice counts minutes, then hours, and names the agent it is given', () => {
  const facts = { state: { state: 'running' }, updatedAt: 0, questionsNotForwardedBy: 'opencode' };
  assert.match(longQuietNotice(facts, 60_000)!, /^No news for 1 min\. /);
  assert.match(longQuietNotice(facts, 3 * 3_600_000 + 7 * 60_000)!, /^No news for 3 h 7 min\. /);
  assert.equal(longQuietNotice({ ...facts, state: { state: 'requires_action' } }, 600_000), undefined);
  assert.equal(longQuietNotice({ ...facts, questionsNotForwardedBy: null }, 600_000), undefined);
});
