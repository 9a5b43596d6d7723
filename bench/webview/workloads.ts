// Host-side message streams for the benchmark, produced by the real ChatFeed over a real SessionStore fed wire
// messages (test/component/wireScenes.ts) in virtual time, so the page receives exactly what a panel would
// (batched at <= 60 posts/s). The streams are built before the page runs: the store's work is not measured.
import type { HostToWebviewMessage, SnapshotMessage } from '../../src/protocol/webviewMessages';
import { ChatFeed } from '../../src/webviews/chatFeed';
import { FakeTimers } from '../../test/component/fakeTimers';
import { SceneWire } from '../../test/component/wireScenes';

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
  const wire = new SceneWire().root('root', 'Benchmark parent');
  wire.prompt('root', 'Split the work across subagents.');
  const ids = Array.from({ length: children }, (_, i) => `child-${i}`);
  for (const id of ids) wire.child('root', id, { title: `Subagent ${id}` });
  const store = wire.store;
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
      wire.toolCall(id, `${id}-t${n}`, { title: `Read file ${n}`, kind: 'read', status: 'completed' });
      current.set(id, `${id}-m${n}`);
    }
    wire.chunk(id, 'agent', `${sentence(n, 1)} `, current.get(id));
    timers.advance(step);
  }
  timers.advance(100);
  feed.dispose();
  return { snapshot: snapshot!, schedule, updates: total };
}

/**
 * One parent whose turn started `children` subagents, each finished with `entriesPerChild` entries of its own
 * (messages and tool calls): opening that chat should cost a row per collapsed child card, not its transcript.
 */
export function manyChildren(children: number, entriesPerChild: number): SnapshotMessage {
  const wire = new SceneWire().root('root', 'Many subagents');
  wire.prompt('root', 'Split the work across subagents.');
  for (let c = 0; c < children; c++) {
    const id = `child-${c}`;
    wire.child('root', id, { title: `Subagent ${c}` });
    for (let i = 0; i < entriesPerChild; i++) {
      if (i % 2 === 0) wire.toolCall(id, `${id}-t${i}`, { title: `Read src/file${i}.ts`, kind: 'read', status: 'completed' });
      else wire.say(id, 'agent', `**Step ${i}**: ${sentence(c + i, 18)}.`);
    }
    wire.state(id, { state: 'idle', stopReason: 'end_turn' });
  }
  return snapshotOf(wire);
}

/** A finished transcript of `entries` entries: markdown messages and tool calls. */
export function longTranscript(entries: number): SnapshotMessage {
  const wire = new SceneWire().root('root', 'Long transcript');
  for (let i = 0; i < entries; i++) {
    const text = `**Step ${i}**: ${sentence(i, 18)}.\n\n- ${sentence(i + 1, 6)}\n- \`code ${i}\``;
    if (i % 4 === 3) {
      wire.toolCall('root', `t${i}`, { title: `Edit src/file${i}.ts`, kind: 'edit', status: 'completed', locations: [{ path: `/repo/src/file${i}.ts`, line: i }] });
    } else if (i % 4 === 0) {
      // Each user message is a turn of its own: the one before ends first.
      if (i > 0) wire.endTurn('root');
      wire.prompt('root', text);
    } else {
      wire.say('root', 'agent', text);
    }
  }
  return snapshotOf(wire);
}

/** What a chat panel opened on the wire's root would be sent first. */
function snapshotOf(wire: SceneWire): SnapshotMessage {
  let snapshot: SnapshotMessage | undefined;
  const feed = new ChatFeed(wire.store, 'root', (message) => {
    if (message.type === 'snapshot') snapshot = message;
  });
  feed.sendSnapshot();
  feed.dispose();
  return structuredClone(snapshot!);
}
