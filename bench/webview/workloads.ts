// Host-side message streams for the benchmark, produced by the real ChatFeed over a FakeStore in virtual
// time, so the page receives exactly what a panel would (batched at <= 60 posts/s).
import type { HostToWebviewMessage, SnapshotMessage } from '../../src/protocol/webviewMessages';
import type { ChildEntry, MessageEntry } from '../../src/store/model';
import { ChatFeed } from '../../src/webviews/chatFeed';
import { FakeStore } from '../../test/component/fakeStore';
import { FakeTimers } from '../../test/component/fakeTimers';

export interface ScheduledMessage {
  /** When to deliver it, ms after the stream starts. */
  readonly at: number;
  /** When the oldest store change it carries happened (for update-to-paint delay). */
  readonly firstChangeAt: number;
  readonly message: HostToWebviewMessage;
}

export interface Stream {
  readonly snapshot: SnapshotMessage;
  readonly schedule: readonly ScheduledMessage[];
  readonly updates: number;
}

const WORDS = 'the parser now handles empty input and nested quotes while the tokenizer keeps offsets stable'.split(' ');

function sentence(seed: number, words: number): string {
  return Array.from({ length: words }, (_, i) => WORDS[(seed * 7 + i * 3) % WORDS.length]).join(' ');
}

/** `children` subagents streaming concurrently at `updatesPerSecond` combined, for `seconds`. */
export function concurrentChildren(children: number, updatesPerSecond: number, seconds: number): Stream {
  const store = new FakeStore();
  store.addSession('root', { title: 'Benchmark parent' });
  store.addEntry<MessageEntry>('root', { kind: 'message', id: 'u', role: 'user', text: 'Split the work across subagents.', attachments: [] });
  const ids = Array.from({ length: children }, (_, i) => `child-${i}`);
  for (const id of ids) {
    store.addSession(id, { parentId: 'root', title: `Subagent ${id}` });
    store.addEntry<ChildEntry>('root', { kind: 'child', id: `c-${id}`, childSessionId: id });
  }
  const timers = new FakeTimers();
  const schedule: ScheduledMessage[] = [];
  let firstChangeAt: number | undefined;
  let snapshot: SnapshotMessage | undefined;
  const feed = new ChatFeed(store, 'root', (message) => {
    if (message.type === 'snapshot') snapshot = message;
    else schedule.push({ at: timers.time, firstChangeAt: firstChangeAt ?? timers.time, message: structuredClone(message) });
    firstChangeAt = undefined;
    // A precomputed schedule has no webview to acknowledge posts: no flow control (the scaling bench has it).
  }, { timers, maxInFlight: Number.POSITIVE_INFINITY });
  feed.sendSnapshot();

  const step = 1000 / updatesPerSecond;
  const total = Math.round(updatesPerSecond * seconds);
  const current = new Map<string, string>();
  const counters = new Map<string, number>();
  for (let i = 0; i < total; i++) {
    const id = ids[i % ids.length]!;
    const n = (counters.get(id) ?? 0) + 1;
    counters.set(id, n);
    firstChangeAt ??= timers.time;
    if (n % 60 === 1) {
      // Every 60th update of a child: a tool call, then a fresh agent message.
      store.upsertToolCall(id, { toolCallId: `${id}-t${n}`, title: `Read file ${n}`, kind: 'read', status: 'completed' });
      const entryId = `${id}-m${n}`;
      store.addEntry<MessageEntry>(id, { kind: 'message', id: entryId, role: 'agent', text: '', attachments: [] });
      current.set(id, entryId);
    } else {
      store.updateEntry<MessageEntry>(id, current.get(id)!, (e) => ({ text: `${e.text}${sentence(n, 1)} ` }));
    }
    timers.advance(step);
  }
  timers.advance(100);
  feed.dispose();
  return { snapshot: snapshot!, schedule, updates: total };
}

/** A finished transcript of `entries` entries: markdown messages and tool calls. */
export function longTranscript(entries: number): SnapshotMessage {
  const store = new FakeStore();
  store.addSession('root', { title: 'Long transcript' });
  for (let i = 0; i < entries; i++) {
    if (i % 4 === 3) {
      store.upsertToolCall('root', { toolCallId: `t${i}`, title: `Edit src/file${i}.ts`, kind: 'edit', status: 'completed', locations: [{ path: `/repo/src/file${i}.ts`, line: i }] });
    } else {
      const role = i % 4 === 0 ? 'user' : 'agent';
      const text = `**Step ${i}**: ${sentence(i, 18)}.\n\n- ${sentence(i + 1, 6)}\n- \`code ${i}\``;
      store.addEntry<MessageEntry>('root', { kind: 'message', id: `m${i}`, role, text, attachments: [] });
    }
  }
  let snapshot: SnapshotMessage | undefined;
  const feed = new ChatFeed(store, 'root', (message) => {
    if (message.type === 'snapshot') snapshot = message;
  });
  feed.sendSnapshot();
  feed.dispose();
  return structuredClone(snapshot!);
}
