// Prompt content: attachments become the ACP blocks the agent opted in to, paths stay inside the workspace,
// and what cannot go is refused before anything is sent. Also the pieces around it: the `@` ranking, the
// store's reading of advertised commands and prompt capabilities, and the guards for the new messages.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import { PromptContentError, promptBlocks, resolveWorkspaceRelative, type PromptContentDeps } from '../../src/host/promptContent';
import { fuzzyScore, rankSuggestions } from '../../src/host/fileRanking';
import { attachmentLabel, attachmentRefusal } from '../../src/presentation';
import { parseHostMessage, parseWebviewMessage } from '../../src/protocol/messageGuards';
import { promptCapabilitiesOf } from '../../src/store/agentCapabilities';
import { readAvailableCommands } from '../../src/store/reducers/sessionDetails';
import { SessionStore } from '../../src/store/sessionStore';
import { describeReceived } from '../../src/demoAgent/script';

const root = mkdtempSync(join(tmpdir(), 'subchats-prompt-'));
const workspace = join(root, 'ws');
const other = join(root, 'ws2');
const outside = join(root, 'outside');
mkdirSync(join(workspace, 'src'), { recursive: true });
mkdirSync(other);
mkdirSync(outside);
writeFileSync(join(workspace, 'src', 'a.ts'), 'line 1\nline 2\nline 3\nline 4\n');
writeFileSync(join(workspace, 'bin.dat'), 'ab\0cd');
writeFileSync(join(other, 'b.ts'), 'export {}\n');
writeFileSync(join(outside, 'secret.txt'), 'secret');
symlinkSync(join(outside, 'secret.txt'), join(workspace, 'link.txt'));
after(() => rmSync(root, { recursive: true, force: true }));

const NONE = { image: false, audio: false, embeddedContext: false };
const EMBED = { image: false, audio: false, embeddedContext: true };
const deps = (capabilities = NONE, extra: Partial<PromptContentDeps> = {}): PromptContentDeps => ({ capabilities, folders: [{ name: 'ws', path: workspace }], ...extra });
const fileUri = (...parts: string[]) => pathToFileURL(join(workspace, ...parts)).href;

describe('prompt content blocks', () => {
  test('without embeddedContext a file goes as a resource_link after the text', async () => {
    const blocks = await promptBlocks('look at this', [{ kind: 'file', path: 'src/a.ts' }], deps());
    assert.deepEqual(blocks, [
      { type: 'text', text: 'look at this' },
      { type: 'resource_link', uri: fileUri('src', 'a.ts'), name: 'a.ts' },
    ]);
  });

  test('with embeddedContext a file goes with its text, a selection with its lines, a folder as a link', async () => {
    const blocks = await promptBlocks('', [{ kind: 'file', path: 'src/a.ts' }, { kind: 'selection', path: 'src/a.ts', startLine: 2, endLine: 3 }, { kind: 'folder', path: 'src' }], deps(EMBED));
    assert.deepEqual(blocks, [
      { type: 'resource', resource: { uri: fileUri('src', 'a.ts'), mimeType: 'text/plain', text: 'line 1\nline 2\nline 3\nline 4\n' } },
      { type: 'resource', resource: { uri: `${fileUri('src', 'a.ts')}#L2:3`, mimeType: 'text/plain', text: 'line 2\nline 3' } },
      { type: 'resource_link', uri: fileUri('src'), name: 'src' },
    ]);
  });

  test('an open editor\'s unsaved text wins over the disk; a binary file goes as a link', async () => {
    const open = (absolute: string) => (absolute === join(workspace, 'src', 'a.ts') ? 'unsaved\n' : undefined);
    const [embedded] = await promptBlocks('', [{ kind: 'file', path: 'src/a.ts' }], deps(EMBED, { openDocumentText: open }));
    assert.equal(embedded?.type === 'resource' && 'text' in embedded.resource ? embedded.resource.text : undefined, 'unsaved\n');
    assert.deepEqual(await promptBlocks('', [{ kind: 'file', path: 'bin.dat' }], deps(EMBED)), [{ type: 'resource_link', uri: fileUri('bin.dat'), name: 'bin.dat' }]);
  });

  test('a selection without embeddedContext is a link naming its lines', async () => {
    assert.deepEqual(await promptBlocks('x', [{ kind: 'selection', path: 'src/a.ts', startLine: 4, endLine: 4 }], deps()), [
      { type: 'text', text: 'x' },
      { type: 'resource_link', uri: `${fileUri('src', 'a.ts')}#L4:4`, name: 'a.ts:4' },
    ]);
  });

  test('media goes only when advertised; otherwise nothing is built', async () => {
    const image = { kind: 'image', name: 'shot.png', mimeType: 'image/png', data: 'iVBORw0K' } as const;
    await assert.rejects(promptBlocks('see', [image], deps()), (error: unknown) => error instanceof PromptContentError && /promptCapabilities\.image/.test(error.message));
    assert.deepEqual(await promptBlocks('see', [image], deps({ ...NONE, image: true })), [
      { type: 'text', text: 'see' },
      { type: 'image', mimeType: 'image/png', data: 'iVBORw0K' },
    ]);
    await assert.rejects(promptBlocks('hear', [{ kind: 'audio', name: 'a.wav', mimeType: 'audio/wav', data: 'UklG' }], deps({ ...NONE, image: true })), /promptCapabilities\.audio/);
  });

  test('paths never leave the workspace: "..", absolute paths and symbolic links out are refused', async () => {
    for (const bad of ['../outside/secret.txt', join(outside, 'secret.txt'), 'link.txt', 'src/../../outside/secret.txt']) {
      await assert.rejects(promptBlocks('', [{ kind: 'file', path: bad }], deps(EMBED)), PromptContentError, bad);
    }
  });

  test('multi-root: the first segment names the folder, as VS Code writes relative paths', async () => {
    const folders = [{ name: 'ws', path: workspace }, { name: 'ws2', path: other }];
    assert.equal(await resolveWorkspaceRelative('ws2/b.ts', folders), join(other, 'b.ts'));
    assert.equal(await resolveWorkspaceRelative('src/a.ts', [{ name: 'ws', path: workspace }]), join(workspace, 'src', 'a.ts'));
    await assert.rejects(resolveWorkspaceRelative('a.ts', []), /No workspace folder/);
  });

  test('an empty prompt is refused', async () => {
    await assert.rejects(promptBlocks('  ', [], deps()), /empty/);
  });
});

describe('prompt content rules', () => {
  test('refusals and chip labels', () => {
    assert.equal(attachmentRefusal('file', NONE), undefined);
    assert.equal(attachmentRefusal('selection', NONE), undefined);
    assert.match(attachmentRefusal('image', NONE) ?? '', /images/);
    assert.equal(attachmentRefusal('audio', { ...NONE, audio: true }), undefined);
    assert.equal(attachmentLabel({ kind: 'selection', path: 'src/a.ts', startLine: 2, endLine: 9 }), 'a.ts:2-9');
    assert.equal(attachmentLabel({ kind: 'folder', path: 'src/lib' }), 'lib/');
  });

  test('prompt capabilities: only true grants (v1 booleans)', () => {
    assert.deepEqual(promptCapabilitiesOf({ promptCapabilities: { image: true, audio: 'yes', embeddedContext: {} } }), { image: true, audio: false, embeddedContext: false });
    assert.deepEqual(promptCapabilitiesOf({}), NONE);
    const store = new SessionStore();
    assert.deepEqual(store.promptCapabilities(), NONE);
    store.ingest({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }, 'client->agent');
    store.ingest({ jsonrpc: '2.0', id: 0, result: { protocolVersion: 1, agentCapabilities: { promptCapabilities: { embeddedContext: true } } } }, 'agent->client');
    assert.deepEqual(store.promptCapabilities(), EMBED);
  });

  test('prompt capabilities at v2: markers under capabilities.session.prompt, and only objects grant', () => {
    assert.deepEqual(promptCapabilitiesOf({ session: { prompt: { image: {}, audio: true, embeddedContext: {} } } }, 2), { image: true, audio: false, embeddedContext: true });
    // The v1 place means nothing at v2.
    assert.deepEqual(promptCapabilitiesOf({ promptCapabilities: { embeddedContext: true } }, 2), NONE);
    const store = new SessionStore();
    store.ingest({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 2 } }, 'client->agent');
    store.ingest({ jsonrpc: '2.0', id: 0, result: { protocolVersion: 2, capabilities: { session: { prompt: { embeddedContext: {} } } } } }, 'agent->client');
    assert.deepEqual(store.promptCapabilities(), EMBED);
  });

  test('advertised commands: names without spaces or a leading slash, once each, text clipped', () => {
    const long = 'x'.repeat(2000);
    assert.deepEqual(
      readAvailableCommands([
        { name: '/quick', description: 'Short', input: null },
        { name: 'plan', description: 'Plan it', input: { hint: 'what to plan' } },
        { name: 'two words', description: 'refused' },
        { name: 'quick', description: 'duplicate' },
        { name: 42 },
        'junk',
        { name: 'long', description: long },
      ]).map((c) => ({ ...c, description: c.description.length })),
      [
        { name: 'quick', description: 5 },
        { name: 'plan', description: 7, hint: 'what to plan' },
        { name: 'long', description: 500 },
      ],
    );
    assert.deepEqual(readAvailableCommands({ not: 'a list' }), []);
  });
});

describe('@ ranking', () => {
  test('matches in order, prefers file names, puts open editors first, and lists folders', () => {
    assert.equal(fuzzyScore('xyz', 'src/a.ts'), undefined);
    assert.ok((fuzzyScore('ats', 'src/a.ts') ?? -1) > (fuzzyScore('ats', 'alpha/tests/x.md') ?? -1));
    const files = ['src/a.ts', 'src/lib/apart.ts', 'docs/a.md', 'README.md'];
    assert.deepEqual(rankSuggestions('a.ts', files, [], 10).map((s) => s.path).slice(0, 2), ['src/a.ts', 'src/lib/apart.ts']);
    assert.deepEqual(rankSuggestions('a', files, ['docs/a.md'], 1), [{ path: 'docs/a.md', kind: 'file', open: true }]);
    assert.ok(rankSuggestions('lib', files, [], 10).some((s) => s.kind === 'folder' && s.path === 'src/lib'));
  });
});

describe('messages', () => {
  test('prompts with attachments: every attachment checked, none dropped silently', () => {
    const file = { kind: 'file', path: 'src/a.ts' };
    assert.deepEqual(parseWebviewMessage({ type: 'prompt', sessionId: 's', text: '', attachments: [file] }), { type: 'prompt', sessionId: 's', text: '', attachments: [file] });
    const image = { kind: 'image', name: 'p.png', mimeType: 'image/png', data: 'iVBO+/==' };
    assert.deepEqual(parseWebviewMessage({ type: 'prompt', sessionId: 's', text: 'x', attachments: [image] })?.type, 'prompt');
    for (const bad of [
      [{ kind: 'file' }],
      [{ kind: 'selection', path: 'a', startLine: 3, endLine: 2 }],
      [{ kind: 'image', name: 'p', mimeType: 'text/html', data: 'AA==' }],
      [{ kind: 'image', name: 'p', mimeType: 'image/png', data: '<script>' }],
      [file, { kind: 'exe', path: 'x' }],
      'nope',
    ]) {
      assert.equal(parseWebviewMessage({ type: 'prompt', sessionId: 's', text: 'x', attachments: bad }), undefined, JSON.stringify(bad));
    }
    assert.equal(parseWebviewMessage({ type: 'prompt', sessionId: 's', text: ' ', attachments: [] }), undefined);
    assert.deepEqual(parseWebviewMessage({ type: 'searchFiles', requestId: 3, query: 'a' }), { type: 'searchFiles', requestId: 3, query: 'a' });
    assert.equal(parseWebviewMessage({ type: 'searchFiles', requestId: -1, query: 'a' }), undefined);
    assert.equal(parseWebviewMessage({ type: 'relay', sessionId: 'c', text: 'hi' }), undefined, 'the host routes relays: no message of its own');
    assert.deepEqual(parseWebviewMessage({ type: 'prompt', sessionId: 'c', text: 'hi', queue: true }), { type: 'prompt', sessionId: 'c', text: 'hi', queue: true });
    assert.equal(parseWebviewMessage({ type: 'prompt', sessionId: 'c', text: 'hi', queue: 'yes' }), undefined);
    assert.deepEqual(parseWebviewMessage({ type: 'unqueue', sessionId: 'c', queuedId: 'q1' }), { type: 'unqueue', sessionId: 'c', queuedId: 'q1' });
    assert.equal(parseWebviewMessage({ type: 'unqueue', sessionId: 'c' }), undefined);
  });

  test('host answers for the prompt box', () => {
    const results = { type: 'fileSearchResults', requestId: 1, items: [{ path: 'a.ts', kind: 'file', open: true }] };
    assert.deepEqual(parseHostMessage(results), results);
    assert.equal(parseHostMessage({ ...results, items: [{ path: 'a.ts', kind: 'device' }] }), undefined);
    assert.deepEqual(parseHostMessage({ type: 'addAttachment', attachment: { kind: 'selection', path: 'a.ts', startLine: 1, endLine: 2, extra: 1 } }), {
      type: 'addAttachment',
      attachment: { kind: 'selection', path: 'a.ts', startLine: 1, endLine: 2 },
    });
    assert.equal(parseHostMessage({ type: 'addAttachment', attachment: { kind: 'image', name: 'x', mimeType: 'image/png', data: '' } }), undefined);
  });
});

test('the demo agent says what it received beyond text', () => {
  assert.deepEqual(
    describeReceived([
      { type: 'text', text: 'hi' },
      { type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts' },
      { type: 'resource', resource: { uri: 'file:///w/a.ts#L2:3', text: 'abc' } },
      { type: 'image', mimeType: 'image/png', data: 'AA==' },
    ]),
    ['file a.ts (resource_link)', 'file a.ts lines 2:3 (resource, 3 characters)', 'image image/png (image)'],
  );
});
