// Export Chat as Markdown: a recorded Claude transcript (whose tool output holds its own ``` fence) and hand-made
// hostile text, read back with marked's lexer, so the test sees the structure a Markdown reader sees.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { marked, type Token, type Tokens } from 'marked';
import { chatMarkdown, markdownFileName, type ChatMarkdownSource } from '../../src/presentation/chatMarkdown';
import type { SessionStore } from '../../src/store/sessionStore';
import { fixtureNames, replayFixture, text, Wire, type FixtureFolder } from './support/storeFixtures';

function exported(store: SessionStore, rootId: string, agentName = 'Claude Code', maxOutputChars?: number): string {
  const source: ChatMarkdownSource = { agentName, session: (id) => store.getSession(id), cwd: '/home/user/project' };
  return chatMarkdown(source, rootId, { utc: true, ...(maxOutputChars ? { maxOutputChars } : {}) });
}

function rootOf(store: SessionStore): string {
  const root = store.listSessions().find((s) => s.parentId === null);
  assert.ok(root);
  return root.id;
}

/** The document's blocks, without the blank lines between them. */
const blocksOf = (markdown: string) => marked.lexer(markdown).filter((t) => t.type !== 'space');
const headings = (tokens: Token[]) => tokens.filter((t): t is Tokens.Heading => t.type === 'heading').map((t) => `${'#'.repeat(t.depth)} ${t.text}`);
const codeBlocks = (tokens: Token[]) => tokens.filter((t): t is Tokens.Code => t.type === 'code');
const indexOfText = (tokens: Token[], start: string) => tokens.findIndex((t) => 'text' in t && typeof t.text === 'string' && t.text.startsWith(start));

test('a recorded Claude chat: the subagent is a nested section where it was spawned, tool calls say their title and status', () => {
  const { store } = replayFixture('traces', 'claude-single.jsonl');
  const markdown = exported(store, rootOf(store));
  const tokens = blocksOf(markdown);
  const root = store.getSession(rootOf(store))!;
  assert.deepEqual(headings(tokens), [`# ${root.label}`, '## Subagent: Read notes file']);
  assert.match(markdown, /^Claude Code · started 2026-11-30 01:40$/m);
  // Parent's words, the spawning call, the subagent's section, then the parent's summary.
  const order = ["I'll delegate this to a subagent.", '**Tool call: Read notes file**', '## Subagent: Read notes file', '**Tool call: Read notes.txt** · read · completed', 'Main agent done.'].map((s) => markdown.indexOf(s));
  assert.ok(order.every((at) => at >= 0), JSON.stringify(order));
  assert.deepEqual([...order].sort((a, b) => a - b), order);
  assert.match(markdown, /^- `notes\.txt:1`$/m, 'a location under the workspace is relative');
});

test('tool output that holds its own ``` fence stays one code block, whole, in a longer fence', () => {
  const { store } = replayFixture('traces', 'claude-single.jsonl');
  const tokens = blocksOf(exported(store, rootOf(store)));
  const read = codeBlocks(tokens).find((block) => block.text.includes('</system-reminder>'));
  assert.ok(read, 'the Read output is a code block');
  assert.match(read.raw, /^````\n```\n/);
  assert.ok(read.text.startsWith('```\n') && read.text.endsWith('</system-reminder>\n```'), read.text);
  // Nothing after it was swallowed: the subagent's answer and the parent's summary are still prose.
  const after = tokens.slice(tokens.indexOf(read) + 1).filter((t) => t.type === 'paragraph').map((t) => (t as Tokens.Paragraph).text);
  assert.ok(after.some((p) => p.startsWith('Subagent A finished.')) && after.some((p) => p.startsWith('Main agent done.')), JSON.stringify(after));
});

test('a thought is folded in <details>, after the answer it came with', () => {
  const { store } = replayFixture('dialects', 'qwen-code-0.24.4.jsonl');
  const tokens = blocksOf(exported(store, rootOf(store), 'qwen-code'));
  const open = tokens.findIndex((t) => t.type === 'html' && t.raw.startsWith('<details>\n<summary>Thinking'));
  assert.ok(open > indexOfText(tokens, 'Checking middleware next.'));
  assert.equal(tokens[open + 1]?.type, 'paragraph');
  assert.equal((tokens[open + 1] as Tokens.Paragraph).text, 'The middleware may re-validate...');
  assert.match(tokens[open + 2]!.raw, /^<\/details>/);
});

test('agent text cannot break the export: an unclosed fence is closed, a thought cannot end its fold, backticks cannot end a code span', () => {
  const wire = new Wire({ now: () => Date.UTC(2026, 11, 1, 9, 30) });
  wire.initialize().newSession('s1');
  const end = wire.prompt('s1', 'Show me the script');
  wire
    .update('s1', text('agent_message_chunk', 'Here it is:\n\n```sh\necho cut off'))
    .update('s1', text('agent_thought_chunk', 'closing early </details> then <b>more</b>'))
    .update('s1', { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Run `a` script', kind: 'execute', status: 'completed', locations: [{ path: '/home/user/project/odd`name.sh' }], content: [{ type: 'content', content: { type: 'text', text: 'out ```` four\n' + 'x'.repeat(50) } }] });
  end('end_turn');
  wire.prompt('s1', 'Thanks');
  const markdown = exported(wire.store, 's1', 'Agent', 20);
  const tokens = blocksOf(markdown);
  const script = codeBlocks(tokens).find((block) => block.lang === 'sh');
  assert.equal(script?.text, 'echo cut off');
  assert.ok(markdown.indexOf('**You** (09:30:00)\n\nThanks') > 0, 'the next prompt is prose again');
  assert.equal(tokens.filter((t) => t.type === 'html' && t.raw.startsWith('</details>')).length, 2, 'one close per fold (the thought and the tool output)');
  assert.match(markdown, /closing early <\\\/details> then <b>more<\/b>/);
  const output = codeBlocks(tokens).find((block) => block.text.startsWith('out'));
  assert.match(output!.raw, /^`````\n/, 'a fence longer than the output\'s run of four');
  assert.match(output!.text, /\n… 44 more characters not exported$/);
  assert.match(markdown, /^- ``odd`name\.sh``$/m);
  assert.match(markdown, /^\*\*Tool call: Run `a` script\*\* · execute · completed/m);
});

test('an ACP v2 diff (files changed and a git patch, no texts) shows the files and the patch', () => {
  const wire = new Wire();
  wire.initialize().newSession('s1', '/home/user/project');
  const patch = 'diff --git a/notes.md b/notes.md\nnew file mode 100644\n--- /dev/null\n+++ b/notes.md\n@@ -0,0 +1 @@\n+# Notes';
  wire.update('s1', { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit notes.md', kind: 'edit', status: 'completed', content: [{ type: 'diff', changes: [{ operation: 'add', path: '/home/user/project/notes.md' }], patch: { format: 'git_patch', text: patch } }, { type: 'diff', changes: [] }] });
  const markdown = exported(wire.store, 's1');
  assert.match(markdown, /^<summary>Changes: add notes\.md<\/summary>$/m);
  assert.equal(codeBlocks(blocksOf(markdown)).find((block) => block.lang === 'diff')?.text, patch);
});

test('the file name comes from the session title without what file systems refuse', () => {
  assert.equal(markdownFileName('Fix: login/bug <2>?'), 'Fix login bug 2.md');
  assert.equal(markdownFileName('  '), 'chat.md');
  assert.equal(markdownFileName('a'.repeat(200)), `${'a'.repeat(80)}.md`);
  assert.equal(markdownFileName('Ends with dots...'), 'Ends with dots.md');
});

test('every recorded transcript exports: one document heading, subagents below it, every fold closed', () => {
  const folders: FixtureFolder[] = ['traces', 'dialects', 'written', 'recorded-new'];
  let exports = 0;
  for (const folder of folders) {
    for (const name of fixtureNames(folder)) {
      const { store } = replayFixture(folder, name);
      for (const root of store.listSessions().filter((s) => s.parentId === null)) {
        const markdown = exported(store, root.id);
        const tokens = blocksOf(markdown);
        const levels = tokens.filter((t): t is Tokens.Heading => t.type === 'heading').map((t) => t.depth);
        assert.equal(levels[0], 1, `${folder}/${name}: starts with the chat's heading`);
        const opened = tokens.filter((t) => t.type === 'html' && t.raw.startsWith('<details>')).length;
        const closed = tokens.filter((t) => t.type === 'html' && t.raw.startsWith('</details>')).length;
        assert.equal(closed, opened, `${folder}/${name}: every fold is closed`);
        exports++;
      }
    }
  }
  assert.ok(exports > 30, `${exports} chats exported`);
});
