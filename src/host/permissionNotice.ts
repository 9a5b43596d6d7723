// The notification that asks for a permission when no chat shows the session. The tool call's title, the
// session labels, the option names and the command are agent text, so all of it is inert (no command links,
// no icons).
import type { RequestPermissionRequest } from '../acp/clientHost';
import type { PermissionEntry, PermissionOption } from '../protocol/transcript';
import type { SessionView } from '../store/model';
import { commandText } from '../presentation';
import { inertUiText } from './uiText';
import { t } from '../presentation/l10n';

export interface PermissionNotice {
  readonly message: string;
  /** Button labels, one per option, distinct even when the agent named two options alike. */
  readonly buttons: readonly string[];
  /** The option a picked button stands for (undefined when dismissed). */
  optionFor(button: string | undefined): string | undefined;
}

interface AttributingStore {
  sessionOfAgentRequest(requestId: string | number): SessionView | undefined;
  getSession(sessionId: string): SessionView | undefined;
}

export function permissionNotice(store: AttributingStore, request: RequestPermissionRequest, requestId: string | number | undefined): PermissionNotice {
  // The store has already attributed the request (a child on the parent's session id included) and read its
  // title and options, whichever ACP version shaped them (v1 `toolCall`, v2 `title` + `subject`).
  const asking = (requestId !== undefined ? store.sessionOfAgentRequest(requestId) : undefined) ?? store.getSession(request.sessionId);
  const entry = requestId === undefined ? undefined : asking?.entries.find((e): e is PermissionEntry => e.kind === 'permission' && e.requestId === String(requestId));
  const parent = asking?.parentId ? store.getSession(asking.parentId) : undefined;
  const title = entry?.title ?? t('a tool call');
  const message = !asking
    ? t('An unknown session asks permission: {0}', title)
    : parent
      ? t('Subagent "{0}" (of "{1}") asks permission: {2}', asking.label, parent.label, title)
      : t('"{0}" asks permission: {1}', asking.label, title);
  const options: readonly PermissionOption[] = entry?.options ?? (Array.isArray(request.options) ? request.options : []);
  const buttons: string[] = [];
  for (const option of options) {
    const shown = inertUiText(String(option.name), 60);
    let unique = shown;
    for (let n = 2; buttons.includes(unique); n++) unique = `${shown} (${n})`;
    buttons.push(unique);
  }
  // The command this answer covers (src/acp/terminalGate.ts), in full as far as a notification can hold it.
  const command = entry?.command !== undefined ? ` — command: ${inertUiText(commandText(entry.command), 1000)}` : '';
  return {
    message: inertUiText(message, 400) + command,
    buttons,
    optionFor: (button) => (button === undefined ? undefined : options[buttons.indexOf(button)]?.optionId),
  };
}
