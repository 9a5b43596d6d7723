// The dialect plug-ins' switchboard: a plug-in's per-update hooks run only once the agent showed it speaks its
// dialect (initialize, one of its methods or results, a `_meta` key, a launch of its kind), so an agent that
// speaks none pays nothing for them; its methods and lookups work while it is dormant.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionRecord } from '../../src/store/model';
import type { Dialect, DialectHost } from '../../src/store/dialects/dialect';
import { DialectSet } from '../../src/store/dialects/dialectSet';
import type { ReducerContext } from '../../src/store/reducerContext';
import type { UpdateOwner } from '../../src/store/updateOwner';

const host: DialectHost = { parts: {} as ReducerContext, applyOnWire: () => undefined, applyOwned: () => undefined };
const wire = { id: 'S' } as SessionRecord;
const owner: UpdateOwner = { kind: 'session', sessionId: 'S' };

/** A plug-in that counts the per-update questions it is asked. */
function counting(extra: Partial<Dialect> = {}): { dialect: Dialect; asked: string[] } {
  const asked: string[] = [];
  const dialect: Dialect = {
    rewrite: () => (asked.push('rewrite'), false),
    ownerOf: () => (asked.push('ownerOf'), undefined),
    afterUpdate: () => void asked.push('afterUpdate'),
    refineSpawn: (spawn) => (asked.push('refineSpawn'), spawn),
    ...extra,
  };
  return { dialect, asked };
}

function askEverything(set: DialectSet): void {
  set.notice({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } });
  set.rewrite(wire, {});
  set.ownerOf(wire, {}, 'agent_message_chunk', owner);
  set.afterUpdate(wire, {});
  set.refineSpawn({ link: 'opaque-tool' }, {});
}

test('a dormant plug-in is asked nothing per update; its _meta key switches it on', () => {
  const { dialect, asked } = counting({ metaKeys: ['vendor/key'] });
  const set = new DialectSet(host, [() => dialect]);
  askEverything(set);
  assert.deepEqual(asked, [], 'an agent that does not speak the dialect pays nothing');
  set.notice({ sessionUpdate: 'tool_call', _meta: { other: 1 } });
  askEverything(set);
  assert.deepEqual(asked, [], 'another _meta key does not switch it on');
  set.notice({ sessionUpdate: 'tool_call', _meta: { 'vendor/key': {} } });
  askEverything(set);
  assert.deepEqual(asked, ['rewrite', 'ownerOf', 'afterUpdate', 'refineSpawn']);
});

test('its methods, results, initialize and launches switch it on; lookups are there while dormant', () => {
  const seen: string[] = [];
  const make = (extra: Partial<Dialect>) => counting(extra);
  const byNotification = make({ notifications: { 'x/event': () => void seen.push('event') } });
  const byResult = make({ results: { 'x/list': () => void seen.push('list') } });
  const byInitialize = make({ initialized: (capabilities) => capabilities['x'] === true });
  const byLaunch = make({ spawnLink: 'copilot-meta', noteSpawn: (wireId, toolCallId) => void seen.push(`${wireId}/${toolCallId}`) });
  const withLookup = make({ lookups: { copilotTaskOf: () => 'task' } });
  const set = new DialectSet(host, [byNotification, byResult, byInitialize, byLaunch, withLookup].map((p) => () => p.dialect));
  assert.equal(set.lookups.copilotTaskOf?.('S', 'a'), 'task');

  assert.equal(set.message('requests', 'x/event', {}), false, 'a notification handler does not take requests');
  assert.equal(set.message('notifications', 'x/event', {}), true);
  assert.equal(set.result('x/list', {}, {}), true);
  set.initialized({ x: true });
  set.noteSpawn('S', 'call1', { link: 'copilot-meta' });
  assert.deepEqual(seen, ['event', 'list', 'S/call1']);
  askEverything(set);
  for (const [name, p] of Object.entries({ byNotification, byResult, byInitialize, byLaunch })) assert.equal(p.asked.length, 4, `${name} is on`);
  assert.deepEqual(withLookup.asked, [], 'the one that showed nothing stays dormant');
});
