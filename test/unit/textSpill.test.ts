// Issue 23 item 4: past the held-text bound the heads of long agent messages go to a vault, the recent part stays
// in memory, and nothing is lost: the chat reads the head back page by page and an export reads it whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HostToWebviewMessage, SnapshotMessage } from '../../src/protocol/webviewMessages';
import type { MessageEntry } from '../../src/protocol/transcript';
import { SessionStore } from '../../src/store/sessionStore';
import { toReplaySnapshot } from '../../src/store/replayReport';
import { KEPT_TAIL_CHARS, PAGE_CHARS, type TextVault, type VaultRef } from '../../src/store/textSpill';
import { FileTextVault, vaultFolder } from '../../src/host/fileTextVault';
import { chatText } from '../../src/presentation/chatText';
import { searchChats } from '../../src/history/chatSearch';
import { subtreeWithWholeTexts, withWholeTexts } from '../../src/store/wholeTexts';
import { ChatFeed } from '../../src/webviews/chatFeed';
import { ChatMirror } from '../../webview/state/mirror';
import { FakeTimers } from '../component/fakeTimers';
import { text, Wire } from './support/storeFixtures';

/** A vault that keeps pages in a list and counts what it was given. */
class ListVault implements TextVault {
  readonly pages: string[] = [];
  put(page: string): VaultRef {
    this.pages.push(page);
    return { offset: this.pages.length - 1, bytes: Buffer.byteLength(page) };
  }
  async read(ref: VaultRef): Promise<string> {
    return this.pages[ref.offset]!;
  }
}

const HELD = 100_000;

class SpillingWire extends Wire {
  override readonly store: SessionStore;
  constructor(readonly vault: TextVault = new ListVault(), maxHeldTextChars = HELD) {
    super();
    this.store = new SessionStore({ now: () => 1000, limits: { maxHeldTextChars }, textVault: vault });
  }
}

/** Lines of about 60 characters, numbered, so any lost or repeated piece shows. */
function lines(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix} line ${i} ${'·'.repeat(40)} é ✓ 😀\n`);
}

function messages(w: Wire, sessionId: string): MessageEntry[] {
  return w.session(sessionId).entries.filter((e): e is MessageEntry => e.kind === 'message');
}

function heldChars(store: SessionStore): number {
  let chars = 0;
  for (const session of store.listSessions()) for (const entry of session.entries) if (entry.kind === 'message' || entry.kind === 'sessionMessage') chars += entry.text.length;
  return chars;
}

/** Reads a message's earlier text back page by page, newest first, as the chat does when the user scrolls up. */
async function pagesBack(store: SessionStore, sessionId: string, entry: MessageEntry): Promise<string[]> {
  const pages: string[] = [];
  let end = entry.earlier?.chars ?? 0;
  while (end > 0) {
    const page = await store.earlierPage(sessionId, entry.id, end);
    assert.ok(page, `a page ends at ${end}`);
    assert.equal(page.start + page.text.length, end, 'the page ends where the held text starts');
    assert.ok(page.text.length <= PAGE_CHARS, `a page is at most ${PAGE_CHARS} characters`);
    pages.unshift(page.text);
    end = page.start;
  }
  return pages;
}

test('streamed far past the bound, memory holds at most the bound and every word is read back in order', async () => {
  const w = new SpillingWire().newSession('R');
  const sent = new Map<string, string>();
  for (let m = 0; m < 6; m++) {
    const id = `m${m}`;
    const words = lines(id, 1_200); // ~76,000 characters each: 6 of them are over four times the bound
    for (const chunk of words) w.update('R', text('agent_message_chunk', chunk, { messageId: id }));
    sent.set(id, words.join(''));
    w.update('R', text('user_message_chunk', `next ${m}`, { messageId: `u${m}` }));
  }
  assert.ok(heldChars(w.store) <= HELD, `${heldChars(w.store)} characters held, bound ${HELD}`);
  const agent = messages(w, 'R').filter((e) => e.role === 'agent');
  assert.equal(agent.length, 6);
  assert.ok(agent[0]!.earlier, 'the oldest message gave its head to the vault');
  for (const entry of agent) {
    const whole = sent.get(entry.messageId!)!;
    assert.equal(await w.store.wholeText('R', entry.id), whole, `${entry.messageId} reads back whole`);
    if (!entry.earlier) continue;
    assert.equal(entry.earlier.chars + entry.text.length, whole.length, 'held text and earlier text make the message');
    assert.equal(entry.earlier.bytes, Buffer.byteLength(whole.slice(0, entry.earlier.chars)), 'the earlier size is in real (UTF-8) bytes');
    assert.ok(entry.text.length <= KEPT_TAIL_CHARS + 100, 'a spilled message keeps its last words');
    assert.match(entry.text, /^m\d line \d+ /, 'the kept part starts a line');
    assert.equal((await pagesBack(w.store, 'R', entry)).join('') + entry.text, whole, 'page by page, the same text');
  }
  for (const entry of messages(w, 'R').filter((e) => e.role === 'user')) assert.equal(entry.earlier, undefined, "the user's words stay in memory");
  // The API's snapshot says how much of the text it gives is not all of it.
  const [root] = toReplaySnapshot(w.store).sessions;
  assert.equal(root?.textOnDisk, agent.reduce((sum, e) => sum + (e.earlier?.chars ?? 0), 0));
});

test('one message streamed without end keeps only its recent part in memory; a split never halves a character', async () => {
  const vault = new ListVault();
  const w = new SpillingWire(vault).newSession('R');
  let whole = '';
  // One long line of emoji (surrogate pairs) and no line breaks: cuts fall anywhere.
  for (let i = 0; i < 3_000; i++) {
    const chunk = `😀${i}`.padEnd(97, '😀');
    whole += chunk;
    w.update('R', text('agent_message_chunk', chunk));
  }
  const [entry] = messages(w, 'R');
  assert.ok(entry?.earlier && entry.earlier.chars > 150_000, `most of it went to the vault: ${JSON.stringify(entry?.earlier)}`);
  assert.ok(heldChars(w.store) <= HELD);
  for (const page of vault.pages) {
    assert.doesNotMatch(page, /^[\udc00-\udfff]|[\ud800-\udbff]$/, 'no page starts or ends inside a surrogate pair');
  }
  assert.equal(await w.store.wholeText('R', entry.id), whole);
});

test('a v2 upsert replaces a spilled message whole; without a vault nothing is ever spilled', async () => {
  const w = new SpillingWire().initialize({ protocolVersion: 2 }).newSession('R');
  for (const chunk of lines('a', 3_000)) w.update('R', text('agent_message_chunk', chunk, { messageId: 'a' }));
  const [entry] = messages(w, 'R');
  assert.ok(entry?.earlier);
  w.update('R', { sessionUpdate: 'agent_message', messageId: 'a', content: [{ type: 'text', text: 'rewritten' }] });
  assert.equal(messages(w, 'R')[0]!.earlier, undefined, 'the new text has nothing earlier');
  assert.equal(await w.store.wholeText('R', entry.id), 'rewritten');

  const plain = new Wire().newSession('R');
  for (const chunk of lines('a', 3_000)) plain.update('R', text('agent_message_chunk', chunk));
  assert.equal(messages(plain, 'R')[0]!.earlier, undefined);
  assert.equal(await plain.store.earlierPage('R', messages(plain, 'R')[0]!.id, 10), undefined);
});

test('a chat open while the head moves to disk keeps its text and goes on appending; a new chat shows the note and reads it back', () => {
  const w = new SpillingWire().newSession('R');
  const timers = new FakeTimers();
  const mirror = new ChatMirror();
  const results: string[] = [];
  const feed = new ChatFeed(
    w.store,
    'R',
    (message: HostToWebviewMessage) => {
      const copy = structuredClone(message);
      if (copy.type === 'snapshot') mirror.applySnapshot(copy as SnapshotMessage);
      else if (copy.type === 'delta') results.push(mirror.applyDelta(copy));
    },
    { timers },
  );
  feed.sendSnapshot();
  let whole = '';
  for (const chunk of lines('x', 4_000)) {
    whole += chunk;
    w.update('R', text('agent_message_chunk', chunk));
    if (whole.length % 7 === 0) feed.flush();
  }
  feed.flush();
  const [stored] = messages(w, 'R');
  assert.ok(stored?.earlier, 'the host moved the head to disk');
  assert.ok(results.length > 0 && results.every((r) => r === 'applied'), `every delta applied: ${[...new Set(results)].join()}`);
  const shown = mirror.session('R')!.entries[0] as MessageEntry;
  assert.equal(shown.earlier, undefined, 'the open chat was not told to drop what it shows');
  assert.equal(shown.text, whole, 'it holds every word, appended in order');
  feed.dispose();

  // A chat opened now gets the recent part and the size of the rest.
  const fresh = new ChatMirror();
  const late = new ChatFeed(w.store, 'R', (message: HostToWebviewMessage) => {
    if (message.type === 'snapshot') fresh.applySnapshot(structuredClone(message) as SnapshotMessage);
  }, { timers });
  late.sendSnapshot();
  const opened = fresh.session('R')!.entries[0] as MessageEntry;
  assert.deepEqual(opened.earlier, stored.earlier);
  assert.equal(opened.text, stored.text);
  late.dispose();
});

test('the chat puts a page read back before its text, and drops a page that no longer meets it', async () => {
  const w = new SpillingWire().newSession('R');
  for (const chunk of lines('p', 3_000)) w.update('R', text('agent_message_chunk', chunk));
  const mirror = new ChatMirror();
  const feed = new ChatFeed(w.store, 'R', (message: HostToWebviewMessage) => {
    if (message.type === 'snapshot') mirror.applySnapshot(structuredClone(message) as SnapshotMessage);
  }, { timers: new FakeTimers() });
  feed.sendSnapshot();
  const held = mirror.session('R')!.entries[0] as MessageEntry;
  const end = held.earlier!.chars;
  const page = (await w.store.earlierPage('R', held.id, end))!;
  assert.equal(mirror.prependEarlier({ type: 'earlierText', sessionId: 'R', entryId: held.id, end: end + 1, page }), false, 'a page for another end is dropped');
  assert.equal(mirror.prependEarlier({ type: 'earlierText', sessionId: 'R', entryId: held.id, end, page }), true);
  const after = mirror.session('R')!.entries[0] as MessageEntry;
  assert.equal(after.text, page.text + held.text);
  assert.equal(after.earlier?.chars ?? 0, page.start);
  assert.equal(after.earlier?.bytes ?? 0, page.bytesBefore);
  feed.dispose();
});

test('the file vault reads back what it wrote; after a failed write it keeps the text in memory and says so once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vault-'));
  try {
    const vault = new FileTextVault(join(dir, 'a', '1.txt'));
    const refs = ['first é\n', 'second 😀\n', 'x'.repeat(100_000)].map((page) => [vault.put(page), page] as const);
    for (const [ref, page] of refs) assert.equal(await vault.read(ref), page);
    await vault.dispose();
    assert.equal(existsSync(join(dir, 'a', '1.txt')), false, 'the file goes with the connection');

    // A folder the vault cannot make: its parent is a file (refused even to root).
    const blocked = join(dir, 'blocked');
    writeFileSync(blocked, '');
    const errors: string[] = [];
    const failing = new FileTextVault(join(blocked, 'sub', '2.txt'), (error) => errors.push(error.message));
    const kept = ['one\n', 'two\n', 'three\n'].map((page) => [failing.put(page), page] as const);
    for (const [ref, page] of kept) assert.equal(await failing.read(ref), page, 'nothing is lost');
    assert.equal(errors.length, 1, `told once: ${errors.join(' | ')}`);
    await failing.dispose();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the vault folder: this extension host's is new, those of hosts that are gone are removed, running ones stay", async () => {
  const root = mkdtempSync(join(tmpdir(), 'vaults-'));
  try {
    for (const name of ['111-1', '222-2', 'junk']) mkdirSync(join(root, name));
    const { folder, swept } = vaultFolder(root, (pid) => pid === 222);
    await swept;
    assert.deepEqual(readdirSync(root).sort(), ['222-2']);
    assert.match(folder, new RegExp(`${process.pid}-\\d+$`));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('Open Chat as Text, Export and Search read every word, the head on disk included; a failed read is said in place', async () => {
  const vault = new ListVault();
  const w = new SpillingWire(vault).newSession('R');
  const words = ['A needle in the head.\n', ...lines('w', 3_000)];
  for (const chunk of words) w.update('R', text('agent_message_chunk', chunk));
  const [entry] = messages(w, 'R');
  assert.ok(entry?.earlier && !entry.text.includes('needle'), 'the first words are on disk');
  const asText = chatText('R', await subtreeWithWholeTexts(w.store, 'R'));
  assert.ok(asText.includes('A needle in the head.') && asText.includes('w line 2999 '), 'the first and the last line are in the text');
  const searched = { id: 'c', agentName: 'Agent', startedAt: 0, sessions: [await withWholeTexts(w.store, w.session('R'))] };
  assert.match(searchChats([searched], 'needle').matches[0]?.snippet ?? '', /A needle in the head/, 'Search Chats finds words on disk');

  const broken: TextVault = { put: (page) => vault.put(page), read: async () => Promise.reject(new Error('EIO: gone')) };
  const b = new SpillingWire(broken).newSession('R');
  for (const chunk of words) b.update('R', text('agent_message_chunk', chunk));
  const shown = (await withWholeTexts(b.store, b.session('R'))).entries[0] as MessageEntry;
  assert.match(shown.text, /^\(0\.\d MB earlier in this message is kept on disk; it could not be read back: EIO: gone\)\n\n/);
  assert.ok(shown.text.endsWith('w line 2999 ' + '·'.repeat(40) + ' é ✓ 😀\n'));
});
