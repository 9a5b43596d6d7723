// Open Changes' review through the service, with a scripted ACP v2 agent that writes its own files: the
// service copies a file when a tool call names it (before the agent writes, here held by a permission), so a
// line the agent wrote but left out of its patch shows, and the disagreement is flagged.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { readWorkspaceText } from '../../src/acp/confinedFs';
import { reviewChange } from '../../src/host/diskSnapshots';
import { SubchatsService } from '../../src/host/subchatsService';
import { ownChanges } from '../../src/store/sessionChanges';
import { fakeAgentConfig, RecordingHost, waitFor } from '../fixtures/fake-agents/harness';

const services: SubchatsService[] = [];
after(() => {
  for (const service of services) service.dispose();
});

test('a v2 agent writes a line its patch leaves out: the review shows the file as announced against the disk, flagged', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'subchats-review-'));
  const file = join(workspace, 'notes.md');
  writeFileSync(file, 'a\nb\n');
  const host = new RecordingHost();
  const service = new SubchatsService({ clientHost: () => host, workspaceFolders: () => [workspace], protocolSetting: () => 2 });
  services.push(service);
  const runtime = await service.start(fakeAgentConfig('v2'), workspace);
  const sessionId = await service.newSession(runtime);
  const update = (body: object) => ({ notify: 'session/update', params: { sessionId, update: body } });
  const patch = ['diff --git a/notes.md b/notes.md', '--- a/notes.md', '+++ b/notes.md', '@@ -1,2 +1,2 @@', ' a', '-b', '+B', ''].join('\n');
  const steps = [
    update({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit notes.md', kind: 'edit', status: 'pending', locations: [{ path: file }] }),
    { request: 'session/request_permission', params: { sessionId, title: 'Edit notes.md?', subject: { type: 'tool_call', toolCall: { toolCallId: 't1' } }, options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }] } },
    { writeFile: file, text: 'a\nB\nhidden\n' },
    update({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed', content: [{ type: 'diff', changes: [{ operation: 'modify', path: file }], patch: { format: 'git_patch', text: patch } }] }),
  ];
  await service.send(runtime.id, sessionId, JSON.stringify(steps));
  await waitFor(() => host.permissions.length === 1, 'the permission request');
  host.permissions[0]!.answer({ outcome: 'selected', optionId: 'allow' });
  await waitFor(() => runtime.store.getSession(sessionId)?.toolCalls['t1']?.status === 'completed', 'the edit to complete');

  await runtime.snapshots!.settled();
  const [change] = ownChanges(runtime.store.getSession(sessionId)!);
  const review = reviewChange(change!, runtime.snapshots!.earliest([sessionId], file), await readWorkspaceText(file, [workspace], 1024 * 1024));
  assert.deepEqual(review, { before: 'a\nb\n', after: 'a\nB\nhidden\n', differs: true });
});
