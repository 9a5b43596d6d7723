// Subchats: Search Chats… in the extension host: the quick pick narrows to the chat whose prompt holds the typed
// word (and to it by the agent's name and the day), shows where it matched, and opens the chosen chat.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SubchatsTestApi as SubchatsApi } from '../../src/extension';
import { calendarDay } from '../../src/presentation/time';
import { activateSubchats, sessionOf } from './support/subchats';
import { stubQuickPick, type FakeQuickPick } from './support/quickPickStub';

describe('Search Chats', function () {
  this.timeout(60_000);
  let api: SubchatsApi;
  let chat: { connectionId: string; sessionId: string };
  const WORD = `zebracorn${Date.now().toString(36)}`;

  before(async () => {
    api = await activateSubchats();
    chat = await api.startSession();
    await api.prompt(chat.connectionId, chat.sessionId, `Tell me about the ${WORD} /quick`);
  });

  /** Runs the command and resolves with its pick once it lists chats, and what the command resolves with. */
  async function openSearch() {
    const picks = stubQuickPick();
    const opened = picks.next();
    const done = vscode.commands.executeCommand<{ connectionId: string; sessionId: string } | undefined>('subchats.searchChats');
    const pick = (await opened) as FakeQuickPick<vscode.QuickPickItem>;
    picks.restore();
    return { pick, done };
  }

  it('finds the chat by a word of its prompt, with the words around it, and opens it', async () => {
    const { pick, done } = await openSearch();
    assert.ok(pick.items.length > 0, 'with nothing typed, the chats are listed');
    pick.type(WORD);
    const label = sessionOf(api, chat.connectionId, chat.sessionId).label;
    assert.deepEqual(pick.items.map((item) => item.label), [label]);
    const [row] = pick.items;
    assert.match(row!.detail ?? '', new RegExp(`Tell me about the ${WORD}`));
    assert.match(row!.description ?? '', new RegExp(`^Demo Agent \\(built in\\) · ${calendarDay(Date.now())} \\d\\d:\\d\\d$`));
    pick.accept(label);
    assert.deepEqual(await done, chat);
    assert.equal(pick.disposed, true);
  });

  it("narrows by the agent's name and the day too, and closes without opening anything when dismissed", async () => {
    const { pick, done } = await openSearch();
    pick.type(`demo ${calendarDay(Date.now())} ${WORD}`);
    assert.equal(pick.items.length, 1);
    pick.type(`demo 1999-01-01 ${WORD}`);
    assert.equal(pick.items.length, 0);
    pick.hide();
    assert.equal(await done, undefined);
  });
});
