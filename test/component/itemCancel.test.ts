// ACP v2 per-item cancel in real Chromium, fed by the real store: a tool call's cancel button and its agent
// terminal's Stop button go the moment the agent disconnects, as the session's own cancel does.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CheckedV2Wire } from '../unit/support/checkedV2Wire';
import { FeedLink } from './feedLink';
import { useHarness } from './harness';

const harness = useHarness();

describe('v2 per-item cancel', () => {
  test('a disconnect withdraws the tool call and terminal cancel buttons at once', async () => {
    const wire = new CheckedV2Wire();
    wire.prompt('run the checks');
    wire.update({ sessionUpdate: 'tool_call_update', toolCallId: 't1', title: 'Run the checks', kind: 'execute', status: 'in_progress', capabilities: { cancel: {} }, content: [{ type: 'terminal', terminalId: 'T' }] });
    wire.update({ sessionUpdate: 'terminal_update', terminalId: 'T', command: 'npm test', capabilities: { cancel: {} } });
    wire.assertSchemaValid();
    const chat = await harness().openChat();
    const link = await FeedLink.showing(chat, wire.store, wire.sessionId);
    const { page } = chat;
    const cancelCall = page.getByRole('button', { name: 'Cancel tool call Run the checks' });
    const stopTerminal = page.getByRole('button', { name: 'Stop the command npm test' });
    const cancelSession = page.getByRole('button', { name: 'Cancel this session' });
    await cancelCall.waitFor();
    await page.getByRole('button', { name: 'Expand tool call Run the checks' }).click();
    await stopTerminal.waitFor();
    await cancelSession.waitFor();

    wire.store.markDisconnected();
    await link.flush();
    await cancelSession.waitFor({ state: 'detached' });
    await cancelCall.waitFor({ state: 'detached' });
    await stopTerminal.waitFor({ state: 'detached' });
    assert.equal(await page.getByText('npm test').count() > 0, true, 'the terminal itself still shows');
    await chat.close();
  });
});
