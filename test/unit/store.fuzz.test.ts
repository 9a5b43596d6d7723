// Mutates real traces (drop, duplicate, reorder across sessions, truncate, corrupt) and checks the store never
// throws and its invariants hold: acyclic, every session reachable once, no child ever re-parented.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionStore } from '../../src/store/sessionStore';
import { fixtureNames, fixtureText } from './support/storeFixtures';

function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Mutation = (lines: string[], random: () => number) => string[];

const MUTATIONS: Record<string, Mutation> = {
  drop: (lines, r) => lines.filter(() => r() > 0.15),
  duplicate: (lines, r) => lines.flatMap((l) => (r() < 0.15 ? [l, l] : [l])),
  reorder: (lines, r) => {
    const out = [...lines];
    for (let i = 0; i < out.length / 4; i++) {
      const a = Math.floor(r() * out.length);
      const b = Math.min(out.length - 1, a + 1 + Math.floor(r() * 6));
      [out[a], out[b]] = [out[b]!, out[a]!];
    }
    return out;
  },
  truncate: (lines, r) => lines.slice(0, Math.floor(r() * lines.length)).concat(lines.length ? [lines[lines.length - 1]!.slice(0, 40)] : []),
  corrupt: (lines, r) =>
    lines.map((l) => {
      const roll = r();
      if (roll < 0.05) return l.slice(0, Math.floor(r() * l.length));
      if (roll < 0.1) return l.replace(/"sessionId":"[^"]*"/, `"sessionId":"${r() < 0.5 ? 'x' : ''}"`);
      if (roll < 0.13) return l.replace(/"sessionUpdate":"[a-z_]+"/, '"sessionUpdate":"mystery"');
      if (roll < 0.16) return l.replace(/"state":\{[^}]*\}/, '"state":42');
      return l;
    }),
};

function checkInvariants(store: SessionStore, parents: Map<string, string>, label: string): void {
  // `ingest` turns internal exceptions into diagnostics so an agent never crashes the host; here they are bugs.
  const internal = store.diagnostics.filter((d) => d.message.startsWith('could not apply message'));
  assert.deepEqual(internal, [], `${label}: the store threw internally`);
  const listed = store.listSessions();
  const ids = listed.map((s) => s.id);
  assert.equal(new Set(ids).size, ids.length, `${label}: each session listed once`);
  assert.equal(ids.length, store.sessionCount, `${label}: every session reachable from a root`);
  for (const session of listed) {
    const entryIds = session.entries.map((e) => e.id);
    assert.equal(new Set(entryIds).size, entryIds.length, `${label}: duplicate entry ids in ${session.id}`);
    const seen = new Set<string>();
    for (let p: string | null = session.id; p; p = store.getSession(p)?.parentId ?? null) {
      assert.ok(!seen.has(p), `${label}: cycle through ${p}`);
      seen.add(p);
    }
    if (session.parentId) {
      const first = parents.get(session.id);
      if (first === undefined) parents.set(session.id, session.parentId);
      else assert.equal(session.parentId, first, `${label}: ${session.id} re-parented`);
      assert.ok(store.getSession(session.parentId)?.childIds.includes(session.id), `${label}: parent lists child`);
    }
  }
}

for (const folder of ['traces', 'dialects'] as const) {
  for (const name of fixtureNames(folder)) {
    test(`fuzz ${folder}/${name}`, () => {
      const lines = fixtureText(folder, name).split('\n');
      for (const [mutationName, mutate] of Object.entries(MUTATIONS)) {
        for (let seed = 1; seed <= 6; seed++) {
          const label = `${name} ${mutationName} seed ${seed}`;
          const mutated = mutate(lines, prng(seed * 7919 + name.length));
          const store = new SessionStore({ now: () => 0 });
          const parents = new Map<string, string>();
          mutated.forEach((line, i) => {
            store.ingestLine(line, i + 1);
            if (i % 25 === 0) checkInvariants(store, parents, label);
          });
          checkInvariants(store, parents, label);
          store.markDisconnected();
          checkInvariants(store, parents, label);
        }
      }
    });
  }
}
