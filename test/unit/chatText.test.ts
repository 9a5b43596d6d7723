// A chat as plain text (src/presentation/chatText.ts), from a real store fed wire messages.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chatText } from '../../src/presentation/chatText';
import { CHILD_A, ROOT, parentWithChildren, withPendingPermission } from '../component/scenes';

test('the chat reads in order: who said what, tool calls with status, plan, questions, then each subagent by its path', () => {
  const w = withPendingPermission(parentWithChildren(), ROOT);
  w.say(ROOT, 'agent', 'Hidden \u202Eexe.js and \u0007bell');
  const text = chatText(ROOT, (id) => w.store.getSession(id));
  const lines = text.split('\n');
  assert.equal(lines[0], 'Chat: Fix the failing tests (Needs you)');
  assert.ok(text.includes('You:\n  Please fix the failing tests in `src/parser`.\n'));
  assert.ok(text.includes('Agent:\n  I will look at the **tokenizer** first:\n'));
  assert.ok(text.includes('Plan · 1/3 done\n  [x] Find the failing test\n  [~] Fix the tokenizer\n  [ ] Run the suite\n'));
  assert.ok(text.includes('Tool call: Read src/parser/tokenizer.ts (completed)\n  /repo/src/parser/tokenizer.ts:42\n'));
  assert.ok(text.includes('Permission requested: Clean the build (Waiting for you)'));
  assert.ok(text.includes('Notice (warning): Context is 80% full'));
  assert.ok(text.includes('Message from this session to Test investigator:\n  Check the tokenizer edge cases.'));
  // Agent text stays text: a bidi override is shown, a control character is not sent to the editor.
  assert.ok(text.includes('Hidden ⟪U+202E⟫exe.js and  bell'));
  const child = text.indexOf(`Subagent: Fix the failing tests › Test investigator (Running)`);
  const grandchild = text.indexOf('Subagent: Fix the failing tests › Test investigator › Edge case checker (Running)');
  assert.ok(child > 0 && grandchild > child, 'subagents follow their parents, named by their path');
  assert.ok(text.slice(child).includes('Agent:\n  Looking at the tokenizer tests.'));
  assert.equal(w.store.getSession(CHILD_A)?.label, 'Test investigator');
});
