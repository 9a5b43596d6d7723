// Serves agent requests with VS Code: permission decisions (chat webview when open, notification otherwise),
// file reads from unsaved buffers, writes through VS Code, elicitation forms through input boxes.
import * as vscode from 'vscode';
import type {
  AccessAsker,
  AccessDecision,
  ClientHost,
  CreateElicitationRequest,
  CreateElicitationResponse,
  OutsideReadQuestion,
  RequestPermissionOutcome,
  RequestPermissionRequest,
  TerminalQuestion,
} from '../acp/clientHost';
import { isExternalLink } from './externalLinks';
import type { PermissionBroker } from './permissionBroker';
import { permissionNotice } from './permissionNotice';
import type { AgentRuntime } from './subchatsService';
import { inertUiText } from './uiText';

export interface ChatVisibility {
  /** Whether a visible chat panel shows this session (itself or inside its root's tree of chats). */
  isSessionVisible(connectionId: string, sessionId: string): boolean;
}

export class VscodeClientHost implements ClientHost {
  readonly elicitationModes = ['form', 'url'] as const;

  constructor(
    private readonly runtime: AgentRuntime,
    private readonly broker: PermissionBroker,
    private readonly chats: ChatVisibility,
  ) {}

  requestPermission(request: RequestPermissionRequest, signal: AbortSignal, context?: { requestId?: string | number }): Promise<RequestPermissionOutcome> {
    const requestId = context?.requestId !== undefined ? String(context.requestId) : undefined;
    return new Promise<RequestPermissionOutcome>((resolve) => {
      let done = false;
      let registration: { dispose(): void } | undefined;
      const finish = (optionId: string | null) => {
        if (done) return;
        done = true;
        registration?.dispose();
        resolve(optionId ? { outcome: 'selected', optionId } : { outcome: 'cancelled' });
      };
      registration = requestId ? this.broker.register(this.runtime.id, requestId, finish) : undefined;
      if (done) return; // answered in the chat before this handler ran (see PermissionBroker)
      signal.addEventListener('abort', () => finish(null), { once: true });
      // The chat answers when it shows the session; otherwise a notification asks (both stay answerable).
      if (requestId && this.chats.isSessionVisible(this.runtime.id, request.sessionId)) return;
      const notice = permissionNotice(this.runtime.store, request, context?.requestId);
      void vscode.window.showWarningMessage(notice.message, { detail: inertUiText(this.runtime.agent.name) }, ...notice.buttons).then((picked) => {
        if (picked === undefined) return; // dismissed: the request stays pending and can be answered in the chat
        finish(notice.optionFor(picked) ?? null);
      });
    });
  }

  async readTextFile(path: string, _sessionId: string, readFromDisk: () => Promise<string>): Promise<string> {
    const open = this.openDocument(path);
    // The editor's text (unsaved changes included) is what the user sees; the disk only through the checked read.
    return open ? open.getText() : readFromDisk();
  }

  async writeTextFile(path: string, content: string, _sessionId: string, writeToDisk: () => Promise<void>): Promise<void> {
    // The disk first, through the checked handle: VS Code's own save would use the path again, which an agent
    // can swap for a link between the check and the write. A clean editor reloads from disk by itself.
    await writeToDisk();
    const open = this.openDocument(path);
    if (open?.isDirty && open.getText() !== content) {
      // Unsaved edits: show the agent's text in the editor too (the user's text stays in undo).
      const edit = new vscode.WorkspaceEdit();
      edit.replace(open.uri, new vscode.Range(open.positionAt(0), open.positionAt(open.getText().length)), content);
      if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`VS Code refused the edit to ${path}`);
    }
  }

  confirmOutsideRead(question: OutsideReadQuestion): Promise<AccessDecision> {
    return this.askAccess(`${this.asker(question)} wants to read a file outside the workspace folders.`, [
      `Path: ${question.path}`,
      ...(question.realPath !== question.path ? [`Leads to: ${question.realPath}`] : []),
      'Allow for This Session allows this path again for this session.',
    ]);
  }

  confirmTerminal(question: TerminalQuestion): Promise<AccessDecision> {
    return this.askAccess(
      `${this.asker(question)} wants to run a command.`,
      [
        `Command: ${[question.command, ...question.args].map((part) => JSON.stringify(part)).join(' ')}`,
        `In: ${question.cwd}`,
        ...(question.riskyEnv.length
          ? ['With environment overrides that change what runs:', ...question.riskyEnv.map((v) => `  ${v.name}=${v.value}`)]
          : ['Allow for This Session runs this program with exactly these arguments again in this session without asking.']),
      ],
      question.riskyEnv.length === 0,
    );
  }

  private asker(question: AccessAsker): string {
    return `${question.agentName} (session "${inertUiText(question.sessionLabel ?? question.sessionId)}")`;
  }

  /** A modal question; agent text goes into `detail`, which VS Code shows as plain text. */
  private async askAccess(message: string, detail: readonly string[], offerSession = true): Promise<AccessDecision> {
    const choices = offerSession ? ['Allow Once', 'Allow for This Session'] : ['Allow Once'];
    const picked = await vscode.window.showWarningMessage(message, { modal: true, detail: detail.map((line) => inertUiText(line, 2000)).join('\n') }, ...choices);
    return picked === 'Allow Once' ? 'once' : picked === 'Allow for This Session' ? 'session' : 'deny';
  }

  private openDocument(path: string): vscode.TextDocument | undefined {
    const fsPath = vscode.Uri.file(path).fsPath;
    return vscode.workspace.textDocuments.find((d) => d.uri.fsPath === fsPath);
  }

  async elicit(request: CreateElicitationRequest, signal: AbortSignal): Promise<CreateElicitationResponse> {
    const raw = request as unknown as Record<string, unknown>;
    const message = typeof raw['message'] === 'string' ? raw['message'] : vscode.l10n.t('The agent asks for input');
    if (raw['mode'] === 'url' && typeof raw['url'] === 'string') {
      const target = raw['url'];
      if (!isExternalLink(target)) {
        void vscode.window.showWarningMessage(inertUiText(vscode.l10n.t('{0} asked to open a link Subchats does not open (only http, https and mailto): {1}', this.runtime.agent.name, target), 600));
        return { action: 'decline' } as CreateElicitationResponse;
      }
      const decline = vscode.l10n.t('Decline');
      const choice = await vscode.window.showInformationMessage(`${inertUiText(message, 600)}\n\n${inertUiText(target, 600)}`, { modal: true, detail: vscode.l10n.t('{0} asks you to open this link.', inertUiText(this.runtime.agent.name)) }, vscode.l10n.t('Open'), decline);
      if (signal.aborted || choice === undefined) return { action: 'cancel' } as CreateElicitationResponse;
      if (choice === decline) return { action: 'decline' } as CreateElicitationResponse;
      await vscode.env.openExternal(vscode.Uri.parse(target));
      return { action: 'accept' } as CreateElicitationResponse;
    }
    const schema = (raw['requestedSchema'] ?? {}) as { properties?: Record<string, { type?: string; title?: string; description?: string; enum?: string[] }>; required?: string[] };
    const content: Record<string, string | number | boolean> = {};
    for (const [key, field] of Object.entries(schema.properties ?? {})) {
      if (signal.aborted) return { action: 'cancel' } as CreateElicitationResponse;
      const prompt = inertUiText(`${message} — ${field.title ?? key}${field.description ? `: ${field.description}` : ''}`, 600);
      const title = inertUiText(this.runtime.agent.name);
      let value: string | undefined;
      if (field.enum) {
        // Shown inert, answered with the agent's own value.
        const picked = await vscode.window.showQuickPick(field.enum.map((choice) => ({ label: inertUiText(String(choice)), choice: String(choice) })), { title, placeHolder: prompt, ignoreFocusOut: true });
        value = picked?.choice;
      } else if (field.type === 'boolean') {
        const answers = [
          { label: vscode.l10n.t('true'), choice: 'true' },
          { label: vscode.l10n.t('false'), choice: 'false' },
        ];
        value = (await vscode.window.showQuickPick(answers, { title, placeHolder: prompt, ignoreFocusOut: true }))?.choice;
      }
      else value = await vscode.window.showInputBox({ title, prompt, ignoreFocusOut: true });
      if (value === undefined) return { action: 'cancel' } as CreateElicitationResponse;
      content[key] = field.type === 'boolean' ? value === 'true' : field.type === 'number' || field.type === 'integer' ? Number(value) : value;
    }
    return { action: 'accept', content } as CreateElicitationResponse;
  }
}
