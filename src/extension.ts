// Entry point: activation builds the services, wires them together and registers the UI.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { welcomeIfAsked } from './host/welcomeOnOpen';
import { inertUiText } from './host/uiText';
import { useL10nBundle } from './presentation';
import { version as VERSION } from '../package.json';
import type { AgentConfig } from './acp/agentProcess';
import { registerAttachmentCommands } from './commands/chatAttachments';
import { readProtocolSetting } from './acp/capabilities';
import { formatProtocolLogLine } from './acp/transcriptRecorder';
import { ProtocolMemory } from './host/protocolMemory';
import { registerCommands } from './commands/registerCommands';
import { ChangesEditor } from './host/changesEditor';
import { SubchatsStatusBar } from './views/statusBarItem';
import { SessionHistory } from './history/sessionHistory';
import { FileTextVault, vaultFolder } from './host/fileTextVault';
import { DEMO_AGENT_ID, demoAgentConfig, mergeAgents, readAgentSettings } from './host/agentPresets';
import { OpenedTranscripts } from './host/openedTranscripts';
import { consentedApi, publicApiFor, type ApiMode } from './host/apiSurface';
import { apiConsentFor, registerApiAccessCommand } from './commands/apiAccess';
import { registerAddAgentCommand } from './commands/addAgent';
import { SubchatsService, type ConnectionSnapshot } from './host/subchatsService';
import { mirrorTerminals } from './host/terminalMirror';
import { PermissionBroker } from './host/permissionBroker';
import { VscodeClientHost } from './host/vscodeClientHost';
import { SubagentEndsNotifier } from './host/subagentEndsNotifier';
import { openSessionsView } from './views/sessionsView';
import { ChatPanelManager } from './webviews/chatPanel';
import type { SessionActions } from './store/model';
import { mayStartAgents, untrustedRefusal } from './commands/workspaceTrust';

/**
 * What `activate()` returns to other extensions: read-only facts, and `requestAccess` for everything that acts
 * for the user or reads what the agents said (asked once per extension; see README "Public API").
 */
export interface SubchatsApi {
  readonly version: string;
  /** The session controller's verdicts for a session now: its turn phase, each action with the reason when not, and `send`. */
  controls(connectionId: string, sessionId: string): SessionActions;
  /** Fires (coalesced) when any session or connection changes. */
  onDidChange(listener: () => void): vscode.Disposable;
  /**
   * Pass your own extension id (`context.extension.id`). The first call asks the user whether your extension may
   * start agents, send prompts and read transcripts; the answer is remembered. Resolves with those methods, which
   * refuse once the user revokes the access ("Subchats: Manage API Access"); rejects when the user did not allow it.
   */
  requestAccess(extensionId: string): Promise<SubchatsAgentAccess>;
}

/** What an extension the user allowed may do (`requestAccess`). */
export interface SubchatsAgentAccess {
  /** Starts (or reuses) the agent and opens a new session in `cwd` (default: the first workspace folder). */
  startSession(agentId?: string, cwd?: string): Promise<{ connectionId: string; sessionId: string }>;
  /** Sends a prompt and resolves with the turn's stop reason; refuses (with the reason) unless a message now would be a prompt. */
  prompt(connectionId: string, sessionId: string, text: string): Promise<{ stopReason: string }>;
  /**
   * Sends a message the way the session's verdict says (`controls(...).send`): a prompt, a steer of the running
   * turn, the session's queue, or for a subagent a relay through its parent. Resolves with what it became.
   */
  send(connectionId: string, sessionId: string, text: string, options?: { queue?: boolean }): Promise<{ route: string; sessionId: string; via?: string }>;
  /** Cancels a session if the store allows it; rejects with the reason otherwise (nothing is sent). */
  cancel(connectionId: string, sessionId: string): Promise<void>;
  /** Every connection with its sessions in the `subchats replay --json` shape. */
  snapshot(): ConnectionSnapshot[];
  /** The connection's wire transcript as JSONL (`{ts, dir, msg}` lines), what `Export Transcript` saves. */
  transcript(connectionId: string): string;
}

/**
 * The API in extension mode Test only (extension-host tests): the agent methods without asking, and answering
 * permissions, which stays with the user otherwise.
 */
export interface SubchatsTestApi extends SubchatsApi, SubchatsAgentAccess {
  /** Permission requests of live connections still waiting for the user, in session order. */
  pendingPermissions(): PendingPermission[];
  /**
   * Answers a pending permission request as if the user picked `optionId` (`null` cancels it). Resolves to
   * false when the request is no longer pending (answered elsewhere, cancelled, or the agent is gone).
   */
  answerPermission(connectionId: string, requestId: string, optionId: string | null): boolean;
}

/** A permission request the agent is waiting on, as `pendingPermissions()` lists it. */
export interface PendingPermission {
  readonly connectionId: string;
  /** The session the request belongs to (a subagent's own id when a child asks). */
  readonly sessionId: string;
  /** JSON-RPC id of the agent's request, as a string; pass it to `answerPermission`. */
  readonly requestId: string;
  readonly toolCallId: string | null;
  readonly title: string;
  readonly options: readonly { readonly optionId: string; readonly name: string; readonly kind: string }[];
}

export async function activate(context: vscode.ExtensionContext): Promise<SubchatsApi | SubchatsTestApi> {
  // Before anything presents a word: the pure layers translate with the bundle vscode.l10n.t reads.
  useL10nBundle(vscode.l10n.bundle);
  const log = vscode.window.createOutputChannel(vscode.l10n.t('Subchats'), { log: true });
  const protocolLog = vscode.window.createOutputChannel(vscode.l10n.t('Subchats Protocol'), { log: true });
  context.subscriptions.push(log, protocolLog);

  const config = () => vscode.workspace.getConfiguration('subchats');
  const storageRoot = (context.storageUri ?? context.globalStorageUri).fsPath;
  const history = new SessionHistory(path.join(storageRoot, 'history'), Math.max(1, config().get<number>('history.maxMegabytes', 20)) * 1024 * 1024);
  const vaults = vaultFolder(path.join(storageRoot, 'text-on-disk'));
  let vaultCount = 0;

  const broker: PermissionBroker = new PermissionBroker((connectionId: string, requestId: string): boolean => pendingPermissionsShown(service).some((p) => p.connectionId === connectionId && p.requestId === requestId));
  let chats: ChatPanelManager | undefined;
  const service = new SubchatsService({
    clientHost: (runtime) => new VscodeClientHost(runtime, broker, { isSessionVisible: (r, s) => chats?.isSessionVisible(r, s) ?? false }),
    workspaceFolders: () => vscode.workspace.workspaceFolders?.map((f) => f.uri.fsPath) ?? [],
    protocolLog: (runtime, direction, message) => protocolLog.info(formatProtocolLogLine(runtime.agent.name, message, direction)),
    log: (text) => log.info(text),
    history,
    // A file per vault: a removed connection's file is deleted after its id may be in use again.
    textVault: (connectionId) => new FileTextVault(path.join(vaults.folder, `${++vaultCount}.txt`), (error) => log.warn(`Text kept on disk for ${connectionId}: ${error.message}; it stays in memory instead.`)),
    heldTextChars: () => Math.max(0.1, config().get<number>('history.textInMemoryMegabytes', 4)) * 1_000_000,
    initializeTimeoutMs: () => Math.max(1, config().get<number>('initializeTimeoutSeconds', 30)) * 1000,
    terminalPolicy: () => {
      const value = config().get<string>('terminals', 'ask');
      return value === 'allow' || value === 'deny' ? value : 'ask';
    },
    maxLineBytes: () => Math.max(1, config().get<number>('maxLineMegabytes', 16)) * 1024 * 1024,
    protocolSetting: () => readProtocolSetting(config().get<unknown>('protocolVersion', 'auto')),
    protocolMemory: new ProtocolMemory(context.globalState),
    // The controller's question before a message (Copilot stops background subagents on a new prompt).
    confirm: async (question) => {
      const send = vscode.l10n.t('Send Anyway');
      return (await vscode.window.showWarningMessage(vscode.l10n.t('Subchats: {0}', inertUiText(question, 600)), { modal: true }, send)) === send;
    },
    onCancelUnconfirmed: (runtime, session) => {
      const stop = vscode.l10n.t('Stop Agent');
      void vscode.window
        .showWarningMessage(vscode.l10n.t('Subchats: "{0}" has not stopped: {1} has not acted on the cancel yet.', inertUiText(session.label), inertUiText(runtime.agent.name)), stop)
        .then((choice) => {
          if (choice === stop) service.stop(runtime.id);
        });
    },
    onMemoryBounded: (runtime, notice) => void vscode.window.showWarningMessage(vscode.l10n.t('Subchats: {0}: {1}', inertUiText(runtime.agent.name), notice)),
  });
  context.subscriptions.push({ dispose: () => service.dispose() });

  // The Sessions view before anything slower (src/views/sessionsView.ts says why); it says it is restoring
  // until the stored sessions are back.
  const transcripts = new OpenedTranscripts(service, context.workspaceState);
  const { tree, view } = openSessionsView({
    service,
    workspaceState: context.workspaceState,
    restore: () =>
      Promise.all([
        // History comes back after a reload: finished sessions as they were, live ones as disconnected.
        history.load().then(
          async ({ connections, problems }) => {
            for (const problem of problems) log.warn(problem);
            // One connection after another, newest first, each in slices: the extension host keeps answering
            // meanwhile, and the newest sessions' rows show before older ones have replayed.
            for (const connection of connections) if (connection.text) await service.addHistory(connection.meta, connection.text);
          },
          (error: unknown) => log.error(`Could not load session history: ${(error as Error).message}`),
        ),
        // Transcripts that were open come back too, under their old ids, so restored chat panels find them.
        transcripts.restore((text) => log.warn(text)),
      ]),
  });
  context.subscriptions.push(tree, view);

  // Presets run from here, not from the workspace (whose node_modules npx would prefer).
  const presetCwd = path.join(context.globalStorageUri.fsPath, 'agent-cwd');
  fs.mkdirSync(presetCwd, { recursive: true });
  const agents = (): AgentConfig[] => {
    const demo = demoAgentConfig({
      cliPath: context.asAbsolutePath(path.join('dist', 'cli.js')),
      nodePath: process.execPath,
      pace: config().get<number>('demoAgent.pace', 150),
      dialect: config().get<string>('demoAgent.dialect', 'acp'),
      childDuration: Math.max(0, config().get<number>('demoAgent.childDuration', 0)),
      steering: config().get<boolean>('demoAgent.steering', true),
    });
    const { agents: user, problems } = readAgentSettings(config().get('agents'));
    for (const problem of problems) log.warn(`subchats.agents[${problem.index}]: ${problem.message}`);
    return mergeAgents(demo, user, presetCwd);
  };

  // Mirror each live connection's terminals into VS Code terminals while it lives.
  const mirrors = new Map<string, vscode.Disposable>();
  context.subscriptions.push(
    service.onDidChangeRuntimes(() => {
      for (const runtime of service.list()) {
        if (runtime.connection && !runtime.connection.isClosed && !mirrors.has(runtime.id)) {
          mirrors.set(runtime.id, mirrorTerminals(runtime.connection.terminals, runtime.agent.name));
        }
      }
      for (const [id, mirror] of mirrors) {
        const connection = service.get(id)?.connection;
        if (!connection || connection.isClosed) {
          mirror.dispose();
          mirrors.delete(id);
        }
      }
    }),
    { dispose: () => mirrors.forEach((mirror) => mirror.dispose()) },
  );

  chats = new ChatPanelManager(context, service, broker, {
    // A session that left the tree in the meantime has nothing to reveal.
    reveal: (connectionId, sessionId) => void tree.reveal(connectionId, sessionId, { follow: true }).then(undefined, () => undefined),
    log: (text) => log.info(text),
  });
  context.subscriptions.push(chats, ...registerAttachmentCommands(chats));
  context.subscriptions.push(new SubagentEndsNotifier(service, chats, () => config().get<boolean>('notifications.subagentEnds', true)));

  const changes = new ChangesEditor();
  context.subscriptions.push(changes, new SubchatsStatusBar(service));

  const workspaceFolder = () => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  context.subscriptions.push(
    ...registerCommands({
      service,
      agents,
      defaultAgentId: () => config().get<string>('defaultAgent', DEMO_AGENT_ID),
      workspaceFolder,
      chats,
      tree,
      protocolLog,
      history,
      transcripts,
      changes,
    }),
  );
  const consent = apiConsentFor(context);
  context.subscriptions.push(registerApiAccessCommand(consent));
  context.subscriptions.push(
    registerAddAgentCommand({ cache: context.globalState, agentsRoot: path.join(context.globalStorageUri.fsPath, 'agents'), log: (text) => log.info(text) }),
  );
  welcomeIfAsked(context).catch((error: unknown) => log.warn(`welcome: ${String(error)}`));
  const api: SubchatsTestApi = {
    version: VERSION,
    async requestAccess(extensionId) {
      const caller = await consent.request(extensionId);
      return consentedApi(api, () => consent.isAllowed(caller.id), () => consent.refusal(caller));
    },
    async startSession(agentId, cwd) {
      if (!mayStartAgents()) throw new Error(untrustedRefusal());
      const id = agentId ?? config().get<string>('defaultAgent', DEMO_AGENT_ID);
      const agent = agents().find((a) => a.id === id);
      if (!agent) throw new Error(`Unknown agent "${id}"`);
      const folder = cwd ?? workspaceFolder();
      if (!folder) throw new Error(vscode.l10n.t('Open a folder first; agents run in the workspace folder.'));
      const runtime = service.liveRuntimeFor(agent.id) ?? (await service.start(agent, folder));
      const sessionId = await service.newSession(runtime, folder);
      return { connectionId: runtime.id, sessionId };
    },
    async prompt(connectionId, sessionId, text) {
      const response = await service.prompt(connectionId, sessionId, text);
      return { stopReason: response.stopReason };
    },
    async send(connectionId, sessionId, text, options) {
      const { route, sessionId: to, via } = await service.send(connectionId, sessionId, text, options?.queue ? { queue: true } : {});
      return { route, sessionId: to, ...(via ? { via } : {}) };
    },
    controls: (connectionId, sessionId) => service.require(connectionId).store.actionsFor(sessionId),
    cancel: (connectionId, sessionId) => service.cancel(connectionId, sessionId),
    snapshot: () => service.snapshot(),
    onDidChange(listener) {
      let timer: NodeJS.Timeout | undefined;
      const fire = () => {
        timer ??= setTimeout(() => {
          timer = undefined;
          listener();
        }, 30);
      };
      const subscriptions = [service.onDidChangeRuntimes(fire), service.onDidChangeSessions(fire)];
      return new vscode.Disposable(() => {
        if (timer) clearTimeout(timer);
        for (const s of subscriptions) s.dispose();
      });
    },
    pendingPermissions: () => pendingPermissionsShown(service),
    answerPermission: (connectionId, requestId, optionId) => broker.answer(connectionId, requestId, optionId),
    transcript: (connectionId) => service.require(connectionId).transcript.text(),
  };
  return publicApiFor(api, apiMode(context.extensionMode));
}

function apiMode(mode: vscode.ExtensionMode): ApiMode {
  if (mode === vscode.ExtensionMode.Test) return 'test';
  return mode === vscode.ExtensionMode.Development ? 'development' : 'production';
}

export function deactivate(): void {}

/** The permission requests the stores of live connections show as pending (what the chat offers buttons for). */
function pendingPermissionsShown(service: SubchatsService): PendingPermission[] {
  const pending: PendingPermission[] = [];
  for (const runtime of service.list()) {
    if (!runtime.live) continue;
    for (const session of runtime.store.listSessions()) {
      for (const entry of session.entries) {
        if (entry.kind !== 'permission' || entry.outcome !== 'pending') continue;
        const { requestId, title, options } = entry;
        pending.push({ connectionId: runtime.id, sessionId: session.id, requestId, toolCallId: entry.toolCallId ?? null, title, options: options.map((o) => ({ ...o })) });
      }
    }
  }
  return pending;
}
