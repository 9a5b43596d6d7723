// Which other extensions may start agents, send prompts and read transcripts through the public API: the user
// is asked once per calling extension; the answer is remembered (either way) and can be changed later.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { API_ACCESS_KEY, ApiConsent, type ApiCaller } from '../../src/host/apiConsent';

const INSTALLED: Record<string, string> = { 'acme.helper': 'Acme Helper', 'evil.tool': '[Allow](command:x) Evil', 'subchats.subchats': 'Subchats' };

function harness(answers: boolean[] = [], stored?: unknown) {
  const values = new Map<string, unknown>(stored === undefined ? [] : [[API_ACCESS_KEY, stored]]);
  const asked: ApiCaller[] = [];
  const consent = new ApiConsent({
    ownId: 'subchats.subchats',
    storage: {
      get: <T>(key: string) => values.get(key) as T | undefined,
      update: async (key: string, value: unknown) => void values.set(key, value),
    },
    installed: (id) => {
      const key = Object.keys(INSTALLED).find((k) => k === id.toLowerCase());
      return key ? { id: key, name: INSTALLED[key]! } : undefined;
    },
    ask: async (caller) => {
      asked.push(caller);
      return answers.shift() ?? false;
    },
  });
  return { consent, asked, stored: () => values.get(API_ACCESS_KEY) };
}

test('asked once per extension: an allow is remembered, across a new ApiConsent on the same storage too', async () => {
  const h = harness([true]);
  assert.equal(h.consent.isAllowed('acme.helper'), false);
  assert.deepEqual(await h.consent.request('acme.helper'), { id: 'acme.helper', name: 'Acme Helper' });
  assert.deepEqual(await h.consent.request('Acme.Helper'), { id: 'acme.helper', name: 'Acme Helper' });
  assert.equal(h.asked.length, 1);
  assert.equal(h.consent.isAllowed('acme.helper'), true);

  const again = harness([], h.stored());
  await again.consent.request('acme.helper');
  assert.equal(again.asked.length, 0, 'remembered in storage');
});

test('a refusal (or a dismissed question) is remembered: the extension cannot ask again and again', async () => {
  const h = harness([false, true]);
  await assert.rejects(h.consent.request('acme.helper'), /did not allow Acme Helper \(acme\.helper\).*Manage API Access/);
  await assert.rejects(h.consent.request('acme.helper'), /did not allow/);
  assert.equal(h.asked.length, 1);
  assert.equal(h.consent.isAllowed('acme.helper'), false);
});

test('requests while the question is open share it', async () => {
  const h = harness([true]);
  const [a, b] = await Promise.all([h.consent.request('acme.helper'), h.consent.request('acme.helper')]);
  assert.deepEqual(a, b);
  assert.equal(h.asked.length, 1);
});

test('an id that is no installed extension, not a string, or Subchats itself is refused without asking', async () => {
  const h = harness([true, true, true, true]);
  for (const id of ['nobody.nothing', '', 42, null, { id: 'acme.helper' }, 'subchats.subchats', 'SubChats.subchats']) {
    await assert.rejects(h.consent.request(id), Error, String(id));
  }
  assert.equal(h.asked.length, 0);
});

test('revoking stops access at once; allowing again restores it; the list names what is decided', async () => {
  const h = harness([true, true]);
  await h.consent.request('acme.helper');
  await h.consent.request('evil.tool');
  assert.deepEqual(h.consent.decisions(), [
    { caller: { id: 'acme.helper', name: 'Acme Helper' }, allowed: true },
    { caller: { id: 'evil.tool', name: '[Allow](command:x) Evil' }, allowed: true },
  ]);
  await h.consent.decide('acme.helper', false);
  assert.equal(h.consent.isAllowed('acme.helper'), false);
  await assert.rejects(h.consent.request('acme.helper'), /did not allow/);
  assert.equal(h.asked.length, 2, 'a revoked extension is not asked about again');
  await h.consent.decide('acme.helper', true);
  assert.equal(h.consent.isAllowed('acme.helper'), true);
});

test('an uninstalled extension keeps its decision and is listed by id', async () => {
  const h = harness([], { 'gone.away': 'allowed' });
  assert.deepEqual(h.consent.decisions(), [{ caller: { id: 'gone.away', name: 'gone.away' }, allowed: true }]);
});

test('odd stored values are ignored, never trusted', () => {
  for (const stored of [null, 'allowed', ['acme.helper'], { 'acme.helper': true }, { 'acme.helper': 'yes' }, { __proto__: { 'acme.helper': 'allowed' } }]) {
    const h = harness([], stored);
    assert.equal(h.consent.isAllowed('acme.helper'), false, JSON.stringify(stored));
    assert.deepEqual(h.consent.decisions(), []);
  }
  assert.equal(harness([], { 'acme.helper': 'allowed' }).consent.isAllowed('constructor'), false);
});
