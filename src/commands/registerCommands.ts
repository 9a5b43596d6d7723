// The Subchats commands. Each accepts a tree node or session id and otherwise asks; each checks what the
// session allows before anything goes on the wire, and says why when it does not.
import * as vscode from 'vscode';
import { createQuickPick, pickerFocusOptions } from './pickerFocus';
import type { AgentConfig } from '../acp/agentProcess';
import type { SessionHistory } from '../history/sessionHistory';
import type { ChangesEditor } from '../host/changesEditor';
import { differsLine } from '../host/diskSnapshots';
import type { OpenedTranscripts } from '../host/openedTranscripts';
import type { AgentRuntime, SubchatsService } from '../host/subchatsService';
import { authenticateInteractively, isAuthRequired } from './agentAuth';
import { browseAgentSessions } from './browseSessions';
import { CHAT_TEXT_SCHEME, ChatTextProvider } from './chatAsText';
import { checkAgentCommand } from './checkAgent';
import { exportChatAsMarkdown } from './exportChat';
import { searchChatsCommand } from './searchChats';
import { pickAgent, type AgentPickItem } from './agentPicker';
import { pickDelegation } from './delegationPicker';
import { advertisedChange, pickSessionSetting } from './sessionSettingsPicker';
import { pickRuntime, pickSession, type SessionTarget } from './sessionTargets';
import { PALETTE_FILTERS, cancellableToolCalls } from './paletteFilters';
import { inertUiText, toastError } from '../host/uiText';
import { installState } from '../host/agentInstallState';
import { changePath } from '../presentation/changes';
import { isObject } from '../store/wireMessage';
import { refusedAsUntrusted } from './workspaceTrust';
import { clearSessionFilter, filterSessions, showOnlyNeedsMe, sortSessions, type ArrangedTree } from './treeViewCommands';

export interface CommandContext {
  readonly service: SubchatsService;
  readonly agents: () => AgentConfig[];
  readonly defaultAgentId: () => string;
  readonly workspaceFolder: () => string | undefined;
  readonly chats: {
    /** Opens (or shows) the session's chat; `focusPrompt` puts the cursor in its prompt box. */
    open(connectionId: string, sessionId: string, beside: boolean, options?: { focusPrompt?: boolean }): void;
    /** The active chat panel's session, if a chat panel is active. */
    activeChat(): { readonly connectionId: string; readonly sessionId: string } | undefined;
    /** Shows the last active chat and focuses its prompt box; false when no chat is open. */
    focusPrompt(): boolean;
  };
  readonly tree: ArrangedTree & {
    reveal(connectionId: string, sessionId: string, options?: { focus?: boolean }): Promise<void>;
    selectedSession(): { readonly connectionId: string; readonly sessionId: string } | undefined;
  };
  readonly protocolLog: vscode.OutputChannel;
  readonly history: SessionHistory | undefined;
  readonly transcripts: OpenedTranscripts;
  readonly changes: ChangesEditor;
}

/** What cannot be done to the session `{0}`, one whole sentence per action (word order differs between languages). */
const CANNOT = {
  prompt: (label: string) => vscode.l10n.t('Subchats: cannot prompt "{0}".', label),
  cancel: (label: string) => vscode.l10n.t('Subchats: cannot cancel "{0}".', label),
  close: (label: string) => vscode.l10n.t('Subchats: cannot close "{0}".', label),
  message: (label: string) => vscode.l10n.t('Subchats: cannot send a message for "{0}".', label),
  cancelChildren: (label: string) => vscode.l10n.t('Subchats: cannot cancel the subagents of "{0}".', label),
  changeSetting: (label: string) => vscode.l10n.t('Subchats: cannot change the mode or options of "{0}".', label),
} as const;

/** True when the session allows the action; otherwise tells the user why (and nothing goes on the wire). */
function allowedOrExplain(target: SessionTarget, action: keyof typeof CANNOT): boolean {
  const verdict = target.runtime.store.actionsFor(target.session.id)[action];
  if (!verdict.allowed) {
    void vscode.window.showWarningMessage(inertUiText(`${CANNOT[action](target.session.label)} ${verdict.reason ?? ''}`, 600));
  }
  return verdict.allowed;
}

/** Runs a command body; failures become an error message instead of an unhandled rejection. */
function guarded<A extends unknown[]>(name: string, body: (...args: A) => Promise<unknown>): (...args: A) => Promise<unknown> {
  return async (...args: A) => {
    try {
      return await body(...args);
    } catch (error) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Subchats: {0} failed: {1}', name, toastError(error)));
      return undefined;
    }
  };
}

export function registerCommands(ctx: CommandContext): vscode.Disposable[] {
  const { service } = ctx;

  const startAgent = async (agent: AgentConfig): Promise<AgentRuntime | undefined> => {
    if (refusedAsUntrusted()) return undefined;
    const cwd = ctx.workspaceFolder();
    if (!cwd) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Subchats: open a folder first; agents run in the workspace folder.'));
      return undefined;
    }
    return vscode.window.withProgress({ location: { viewId: 'subchats.sessions' }, title: vscode.l10n.t('Starting {0}…', agent.name) }, () => service.start(agent, cwd));
  };

  const newSession = async (arg?: unknown): Promise<{ connectionId: string; sessionId: string } | undefined> => {
    let runtime = arg && typeof arg === 'object' && 'connectionId' in arg && !('sessionId' in arg) ? service.get(String((arg as { connectionId: unknown }).connectionId)) : undefined;
    if (runtime && !runtime.live) runtime = undefined;
    if (!runtime) {
      // Say so before asking which agent: none of them may start here.
      if (refusedAsUntrusted()) return undefined;
      let agent = typeof arg === 'string' ? ctx.agents().find((a) => a.id === arg) : undefined;
      agent ??= await pickAgent({
        createQuickPick: () => createQuickPick<AgentPickItem>(),
        agents: ctx.agents,
        defaultAgentId: ctx.defaultAgentId,
        installState: (agent) => installState(agent),
        onDidChangeSettings: (listener) => vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('subchats') && listener()),
      });
      if (!agent) return undefined;
      runtime = service.liveRuntimeFor(agent.id) ?? (await startAgent(agent));
      if (!runtime) return undefined;
    }
    let sessionId: string;
    try {
      sessionId = await service.newSession(runtime);
    } catch (error) {
      if (!isAuthRequired(error) || !(await authenticateInteractively(runtime))) throw error;
      sessionId = await service.newSession(runtime);
    }
    // The user starts a chat to type in it: the cursor goes to the new chat's prompt box.
    ctx.chats.open(runtime.id, sessionId, true, { focusPrompt: true });
    await ctx.tree.reveal(runtime.id, sessionId).then(undefined, () => undefined);
    return { connectionId: runtime.id, sessionId };
  };

  const sendPrompt = async (arg?: unknown, textArg?: unknown) => {
    const target = await pickSession(service, arg, vscode.l10n.t('Send a prompt to which session?'), PALETTE_FILTERS['subchats.sendPrompt']);
    if (!target) return;
    if (!allowedOrExplain(target, 'prompt')) return;
    const text = typeof textArg === 'string' ? textArg : await vscode.window.showInputBox({ prompt: vscode.l10n.t('Prompt for {0}', inertUiText(target.session.label)), ignoreFocusOut: true });
    if (!text) return;
    // A delegation preference goes with a prompt only; a message into a running turn is steered or queued as it is.
    const asPrompt = target.runtime.store.actionsFor(target.session.id).send.route === 'prompt';
    const delegation = typeof textArg === 'string' || !asPrompt ? null : await pickDelegation(target.runtime, target.session.id);
    if (delegation === undefined) return;
    const sent = await service.send(target.runtime.id, target.session.id, text, delegation ? { delegation } : {}).catch((error: unknown) => {
      void vscode.window.showErrorMessage(vscode.l10n.t('Subchats: the prompt was not sent: {0}', toastError(error)));
      return undefined;
    });
    sent?.turn?.catch((error: unknown) => void vscode.window.showErrorMessage(vscode.l10n.t('Subchats: the prompt failed: {0}', toastError(error))));
  };

  const cancel = async (arg?: unknown) => {
    const target = await pickSession(service, arg, vscode.l10n.t('Cancel which session?'), PALETTE_FILTERS['subchats.cancel']);
    if (!target) return;
    if (!allowedOrExplain(target, 'cancel')) return;
    await service.cancel(target.runtime.id, target.session.id);
  };

  /** ACP v2: stop one tool call that grants cancel (arg `{connectionId, sessionId, toolCallId}` skips the pickers). */
  const cancelToolCall = async (arg?: unknown) => {
    const target = await pickSession(service, arg, vscode.l10n.t('Cancel a tool call of which session?'), PALETTE_FILTERS['subchats.cancelToolCall']);
    if (!target) return;
    const given = (arg as { toolCallId?: unknown } | undefined)?.toolCallId;
    const toolCallId =
      typeof given === 'string'
        ? given
        : (
            await vscode.window.showQuickPick(
              cancellableToolCalls(target).map((id) => ({ label: inertUiText(target.session.toolCalls[id]?.title || vscode.l10n.t('Tool call')), description: target.session.toolCalls[id]?.kind, id })),
              { placeHolder: vscode.l10n.t('Cancel which tool call of {0}?', inertUiText(target.session.label)), ...pickerFocusOptions() },
            )
          )?.id;
    if (!toolCallId) return;
    const verdict = target.runtime.store.itemActionsFor(target.session.id, { toolCallId }).cancel;
    if (!verdict.allowed) {
      void vscode.window.showWarningMessage(inertUiText(`${vscode.l10n.t('Subchats: cannot cancel this tool call.')} ${verdict.reason ?? ''}`, 600));
      return;
    }
    await service.cancelItem(target.runtime.id, target.session.id, { toolCallId });
  };

  const cancelAllChildren = async (arg?: unknown) => {
    const target = await pickSession(service, arg, vscode.l10n.t('Cancel the subagents of which session?'), PALETTE_FILTERS['subchats.cancelAllChildren']);
    if (!target || !allowedOrExplain(target, 'cancelChildren')) return;
    const { cancelled, refused } = await service.cancelChildren(target.runtime.id, target.session.id);
    if (refused.length > 0) {
      const list = refused.map((r) => `"${r.title}"`).join(', ');
      void vscode.window.showWarningMessage(inertUiText(vscode.l10n.t('Subchats: cancelled {0} subagent(s). Not cancellable: {1}. {2}', cancelled.length, list, refused[0]!.reason), 600));
    } else if (cancelled.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Subchats: no running subagent to cancel.'));
    }
  };

  const messageChild = async (arg?: unknown, textArg?: unknown) => {
    const target = await pickSession(service, arg, vscode.l10n.t('Message which subagent?'), PALETTE_FILTERS['subchats.messageChild']);
    if (!target || !allowedOrExplain(target, 'message')) return;
    const controls = target.runtime.store.actionsFor(target.session.id);
    const title = inertUiText(target.session.label);
    if (controls.prompt.allowed) return sendPrompt({ connectionId: target.runtime.id, sessionId: target.session.id }, textArg);
    const via = inertUiText(controls.send.via?.label ?? 'its parent');
    const text =
      typeof textArg === 'string'
        ? textArg
        : await vscode.window.showInputBox({ title: vscode.l10n.t('Message for subagent "{0}"', title), prompt: vscode.l10n.t('ACP gives clients no way to message a subagent directly: this goes to "{0}", labelled as a message for "{1}". {2}', via, title, inertUiText(controls.send.reason, 300)), ignoreFocusOut: true });
    if (!text) return;
    await service.send(target.runtime.id, target.session.id, text).catch((error: unknown) => void vscode.window.showErrorMessage(vscode.l10n.t('Subchats: the message for "{0}" was not sent: {1}', title, toastError(error))));
  };

  const openChat = (beside: boolean) => async (arg?: unknown) => {
    const target = await pickSession(service, arg, vscode.l10n.t('Open the chat of which session?'));
    if (target) ctx.chats.open(target.runtime.id, target.session.id, beside);
  };

  /** A tree row's click: the clicked row is the selection by then (see the tree provider's item command). */
  const openSelectedChat = async () => {
    const selected = ctx.tree.selectedSession();
    if (selected) ctx.chats.open(selected.connectionId, selected.sessionId, false);
  };

  /** Opens a chat and shows its row in the tree (when the tree's filter shows it). */
  const openAndReveal = (connectionId: string, sessionId: string) => {
    ctx.chats.open(connectionId, sessionId, false);
    void ctx.tree.reveal(connectionId, sessionId).then(undefined, () => undefined);
  };

  const revealInTree = async (arg?: unknown) => {
    const target = await pickSession(service, arg, vscode.l10n.t('Reveal which session?'));
    if (target) await ctx.tree.reveal(target.runtime.id, target.session.id, { focus: true });
  };

  const closeSession = async (arg?: unknown) => {
    const target = await pickSession(service, arg, vscode.l10n.t('Close which session?'), PALETTE_FILTERS['subchats.closeSession']);
    if (!target) return;
    if (!allowedOrExplain(target, 'close')) return;
    if (!target.runtime.connection?.offers('close')) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Subchats: {0} does not support closing sessions (no sessionCapabilities.close). Cancel it instead.', target.runtime.agent.name));
      return;
    }
    await service.close(target.runtime.id, target.session.id);
  };

  const openSubagentSession = async (arg?: unknown) => {
    const target = await pickSession(service, arg, vscode.l10n.t('Open the own session of which subagent?'), PALETTE_FILTERS['subchats.openSubagentSession']);
    if (!target) return;
    const verdict = target.runtime.store.actionsFor(target.session.id).openSubagent;
    if (!verdict.allowed) {
      void vscode.window.showWarningMessage(inertUiText(`${vscode.l10n.t('Subchats: cannot open the session of "{0}".', target.session.label)} ${verdict.reason ?? ''}`, 600));
      return;
    }
    const ownId = await vscode.window.withProgress({ location: { viewId: 'subchats.sessions' }, title: vscode.l10n.t('Loading {0}…', inertUiText(target.session.label)) }, () =>
      service.openSubagentSession(target.runtime.id, target.session.id),
    );
    ctx.chats.open(target.runtime.id, ownId, true);
    await ctx.tree.reveal(target.runtime.id, ownId).then(undefined, () => undefined);
    return ownId;
  };

  /** `changeArg` (the chat header's pickers) skips the quick pick when it names an advertised value. */
  const changeSetting = async (arg?: unknown, changeArg?: unknown) => {
    const target = await pickSession(service, arg, vscode.l10n.t('Change the mode or options of which session?'), PALETTE_FILTERS['subchats.changeModeOrOption']);
    if (!target || !allowedOrExplain(target, 'changeSetting')) return;
    if (changeArg !== undefined && !advertisedChange(target.session, changeArg)) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Subchats: "{0}" does not offer that mode or option (any more).', inertUiText(target.session.label)));
      return;
    }
    const change = advertisedChange(target.session, changeArg) ?? (await pickSessionSetting(target.session));
    if (change) await service.changeSetting(target.runtime.id, target.session.id, change);
  };

  const focusPrompt = async () => {
    if (!ctx.chats.focusPrompt()) void vscode.window.showInformationMessage(vscode.l10n.t('Subchats: no chat is open. Start one with "Subchats: New Session…".'));
  };

  /**
   * The active chat's session, else the session selected in the tree (checked like Cancel Session). The
   * keybinding runs it in the tree only, with `{ from: 'tree' }`: there the selection counts, as the chat
   * that is the active editor stays active while the keyboard is in the side bar. In a chat the webview
   * answers Ctrl+Alt+X itself (webview/lib/cancelChord.ts).
   */
  const cancelFocused = async (arg?: unknown) => {
    const fromTree = isObject(arg) && arg['from'] === 'tree';
    const chat = fromTree ? undefined : ctx.chats.activeChat();
    const target = chat ? { connectionId: chat.connectionId, sessionId: chat.sessionId } : ctx.tree.selectedSession();
    if (!target) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Subchats: focus a chat or select a session in the tree to cancel it.'));
      return;
    }
    await cancel(target);
  };

  /** The status bar item: the one session that waits opens; several are offered; with none, the tree shows. */
  const showWaiting = async () => {
    const waiting = PALETTE_FILTERS['subchats.showWaiting'];
    const targets = service.list().flatMap((runtime) => runtime.store.listSessions().map((session) => ({ runtime, session }))).filter(waiting);
    if (targets.length === 0) {
      await vscode.commands.executeCommand('subchats.sessions.focus');
      return;
    }
    const target = targets.length === 1 ? targets[0] : await pickSession(service, undefined, vscode.l10n.t('Which session do you want to answer?'), waiting);
    if (!target) return;
    ctx.chats.open(target.runtime.id, target.session.id, true);
    await ctx.tree.reveal(target.runtime.id, target.session.id).then(undefined, () => undefined);
  };

  /** A tree node opens its whole tree's changes; `{ …, scope: 'session' }` only the session's own. */
  const openChanges = async (arg?: unknown) => {
    const target = await pickSession(service, arg, vscode.l10n.t('Open the changes of which session?'), PALETTE_FILTERS['subchats.openChanges']);
    if (!target) return;
    const scope = isObject(arg) && arg['scope'] === 'session' ? 'session' : 'tree';
    const opened = await ctx.changes.open(target.runtime.store, target.session.id, scope, target.runtime.snapshots);
    const cwd = target.runtime.store.effectiveCwd(target.session.id);
    if (opened.differs.length > 0) {
      const files = opened.differs.map((file) => changePath(file, cwd)).join(', ');
      void vscode.window.showWarningMessage(inertUiText(vscode.l10n.t('Subchats: {0} ({1}). Open Changes shows each file as it was when the agent first touched it against the disk now.', differsLine(opened.differs.length), files), 2000));
    }
    if (opened.unchecked.length > 0) {
      const files = opened.unchecked.map((file) => `${changePath(file.path, cwd)} (${file.reason})`).join('; ');
      void vscode.window.showInformationMessage(inertUiText(vscode.l10n.t('Subchats: not checked against the disk: {0}.', files), 2000));
    }
    if (opened.notShown.length > 0) {
      const files = opened.notShown.map((file) => `${changePath(file.path, cwd)} (${file.reason})`).join('; ');
      const total = opened.shown + opened.notShown.length;
      void vscode.window.showInformationMessage(inertUiText(
          total === 1
            ? vscode.l10n.t('Subchats: the changed file of "{0}" cannot be shown: {1}.', target.session.label, files)
            : vscode.l10n.t('Subchats: {0} of {1} changed files of "{2}" cannot be shown: {3}.', opened.notShown.length, total, target.session.label, files),
          2000,
        ));
    }
  };

  const browseSessions = async (arg?: unknown) => {
    const runtime = await pickRuntime(service, arg, vscode.l10n.t('Browse the stored sessions of which agent?'), (r) => r.live);
    if (runtime) await browseAgentSessions(service, runtime, ctx.workspaceFolder(), (connectionId, sessionId) => ctx.chats.open(connectionId, sessionId, true));
  };

  const restartAgent = async (arg?: unknown) => {
    const runtime = await pickRuntime(service, arg, vscode.l10n.t('Restart which agent?'), (r) => r.status !== 'history' && r.status !== 'transcript');
    if (!runtime) return;
    if (refusedAsUntrusted()) return;
    await vscode.window.withProgress({ location: { viewId: 'subchats.sessions' }, title: vscode.l10n.t('Restarting {0}…', runtime.agent.name) }, () =>
      service.restart(runtime.id, ctx.agents().find((a) => a.id === runtime.agent.id)),
    );
  };

  const openTranscript = async (arg?: unknown) => {
    const uri =
      arg instanceof vscode.Uri
        ? arg
        : typeof arg === 'string'
          ? vscode.Uri.file(arg)
          : (await vscode.window.showOpenDialog({ canSelectMany: false, filters: { [vscode.l10n.t('ACP transcripts')]: ['jsonl', 'ndjson', 'log', 'json'], [vscode.l10n.t('All files')]: ['*'] }, openLabel: vscode.l10n.t('Open Transcript') }))?.[0];
    if (!uri) return undefined;
    const runtime = await ctx.transcripts.open(uri);
    const name = runtime.agent.name;
    const roots = runtime.store.listSessions().filter((s) => s.parentId === null);
    if (roots[0]) ctx.chats.open(runtime.id, roots[0].id, true);
    const diagnostics = runtime.store.diagnostics.length;
    if (diagnostics > 0) void vscode.window.showInformationMessage(vscode.l10n.t('Subchats: {0} opened with {1} protocol diagnostic(s); see the Subchats Protocol log.', inertUiText(name), diagnostics));
    for (const d of runtime.store.diagnostics) ctx.protocolLog.appendLine(`[${name}] line ${d.line}: [${d.code}] ${d.message}`);
    return runtime.id;
  };

  const exportTranscript = async (arg?: unknown) => {
    const runtime = await pickRuntime(service, arg, vscode.l10n.t('Export the transcript of which agent connection?'));
    if (!runtime) return;
    const folder = ctx.workspaceFolder();
    const suggested = `${runtime.agent.id.replace(/[^\w.-]+/g, '-')}-${new Date(runtime.startedAt).toISOString().replace(/[:.]/g, '-')}.jsonl`;
    const uri = await vscode.window.showSaveDialog({ defaultUri: folder ? vscode.Uri.joinPath(vscode.Uri.file(folder), suggested) : undefined, filters: { [vscode.l10n.t('ACP transcripts')]: ['jsonl'] } });
    if (!uri) return;
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(runtime.transcript.text()));
    void vscode.window.showInformationMessage(vscode.l10n.t('Subchats: transcript saved to {0}. Replay it with "npx subchats replay".', uri.fsPath));
  };

  const reconnectSession = async (arg?: unknown) => {
    const reconnectable = PALETTE_FILTERS['subchats.reconnectSession'];
    const target = await pickSession(service, arg, vscode.l10n.t('Reconnect which session?'), reconnectable);
    if (!target) return;
    // An argument skips the picker's filter: ACP only reattaches root sessions this client opened.
    if (!reconnectable(target)) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Subchats: cannot reconnect "{0}": only a finished root session of an agent that supports session/load or session/resume can be reattached (subagents come back with their parent).', inertUiText(target.session.label)));
      return;
    }
    const agent = ctx.agents().find((a) => a.id === target.runtime.agent.id);
    if (!agent) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Subchats: the agent "{0}" is no longer configured.', target.runtime.agent.name));
      return;
    }
    if (refusedAsUntrusted()) return;
    const runtime = await service.reconnect(target.runtime.id, target.session.id, agent);
    ctx.chats.open(runtime.id, target.session.id, true);
  };

  const deleteHistory = async () => {
    const old = service.list().filter((r) => r.status === 'history' || r.status === 'transcript' || r.status === 'exited' || r.status === 'failed');
    const remove = vscode.l10n.t('Delete');
    const choice = await vscode.window.showWarningMessage(vscode.l10n.t('Delete the stored history of {0} finished agent connection(s)?', old.length), { modal: true }, remove);
    if (choice !== remove) return;
    for (const runtime of old) {
      service.remove(runtime.id);
      await ctx.history?.delete(runtime.id);
      if (runtime.status === 'transcript') await ctx.transcripts.forget(runtime.id);
    }
  };

  /** The focused chat (else the session selected in the tree, else one picked) as plain text in a read-only editor. */
  const chatTexts = new ChatTextProvider(service);
  const openChatAsText = async (arg?: unknown) => {
    const focused = arg === undefined ? (ctx.chats.activeChat() ?? ctx.tree.selectedSession()) : arg;
    const target = await pickSession(service, focused, vscode.l10n.t('Show which chat as plain text?'));
    if (!target) return;
    await chatTexts.open(target.runtime.id, target.session.id, target.session.label);
  };

  const commands: [string, (...args: unknown[]) => Promise<unknown>][] = [
    ['subchats.newSession', guarded(vscode.l10n.t('New Session'), newSession)],
    ['subchats.sendPrompt', guarded(vscode.l10n.t('Send Prompt'), sendPrompt)],
    ['subchats.cancel', guarded(vscode.l10n.t('Cancel'), cancel)],
    ['subchats.cancelAllChildren', guarded(vscode.l10n.t('Cancel All Subagents'), cancelAllChildren)],
    ['subchats.cancelToolCall', guarded(vscode.l10n.t('Cancel Tool Call'), cancelToolCall)],
    ['subchats.messageChild', guarded(vscode.l10n.t('Message Subagent'), messageChild)],
    ['subchats.openChat', guarded(vscode.l10n.t('Open Chat'), openChat(false))],
    ['subchats.openSelectedChat', guarded(vscode.l10n.t('Open Chat'), openSelectedChat)],
    ['subchats.openChatBeside', guarded(vscode.l10n.t('Open Chat to the Side'), openChat(true))],
    ['subchats.revealInTree', guarded(vscode.l10n.t('Reveal in Session Tree'), revealInTree)],
    ['subchats.closeSession', guarded(vscode.l10n.t('Close Session'), closeSession)],
    ['subchats.changeModeOrOption', guarded(vscode.l10n.t('Change Mode or Option'), changeSetting)],
    ['subchats.openChanges', guarded(vscode.l10n.t('Open Changes'), openChanges)],
    ['subchats.showWaiting', guarded(vscode.l10n.t('Show What Waits'), showWaiting)],
    ['subchats.focusPrompt', guarded(vscode.l10n.t('Focus Chat Prompt'), focusPrompt)],
    ['subchats.openChatAsText', guarded(vscode.l10n.t('Open Chat as Plain Text'), openChatAsText)],
    ['subchats.cancelFocused', guarded(vscode.l10n.t('Cancel Focused Session'), cancelFocused)],
    ['subchats.browseAgentSessions', guarded(vscode.l10n.t('Browse Agent Sessions'), browseSessions)],
    ['subchats.restartAgent', guarded(vscode.l10n.t('Restart Agent'), restartAgent)],
    ['subchats.openTranscript', guarded(vscode.l10n.t('Open Transcript'), openTranscript)],
    ['subchats.exportTranscript', guarded(vscode.l10n.t('Export Transcript'), exportTranscript)],
    ['subchats.exportChatMarkdown', guarded(vscode.l10n.t('Export Chat as Markdown'), (arg?: unknown) => exportChatAsMarkdown({ service, workspaceFolder: ctx.workspaceFolder, activeChat: () => ctx.chats.activeChat() }, arg))],
    ['subchats.searchChats', guarded(vscode.l10n.t('Search Chats'), () => searchChatsCommand({ service, open: openAndReveal }))],
    ['subchats.showProtocolLog', async () => ctx.protocolLog.show(true)],
    ['subchats.reconnectSession', guarded(vscode.l10n.t('Reconnect Session'), reconnectSession)],
    ['subchats.deleteHistory', guarded(vscode.l10n.t('Delete History'), deleteHistory)],
    ['subchats.openSubagentSession', guarded(vscode.l10n.t('Open Subagent Session'), openSubagentSession)],
    ['subchats.sortSessions', guarded(vscode.l10n.t('Sort Sessions'), () => sortSessions(ctx.tree))],
    ['subchats.filterSessions', guarded(vscode.l10n.t('Filter Sessions'), () => filterSessions(ctx.tree))],
    ['subchats.showOnlyNeedsMe', guarded(vscode.l10n.t('Show Only Sessions That Need You'), () => showOnlyNeedsMe(ctx.tree))],
    ['subchats.clearSessionFilter', guarded(vscode.l10n.t('Clear Session Filter'), () => clearSessionFilter(ctx.tree))],
    ['subchats.checkAgent', guarded(vscode.l10n.t('Check Agent'), (arg?: unknown) => checkAgentCommand({ service, agents: ctx.agents, workspaceFolder: ctx.workspaceFolder, output: ctx.protocolLog }, arg))],
  ];
  return [
    ...commands.map(([id, handler]) => vscode.commands.registerCommand(id, handler)),
    chatTexts,
    vscode.workspace.registerTextDocumentContentProvider(CHAT_TEXT_SCHEME, chatTexts),
  ];
}
