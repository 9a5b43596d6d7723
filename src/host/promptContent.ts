// Turns the prompt box's text and attachments into ACP content blocks. Paths come from the webview as
// workspace-relative paths and are resolved inside the workspace only; a file's text goes along (`resource`)
// only when the agent advertised embeddedContext, otherwise as a `resource_link`; media only when advertised.
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ContentBlock } from '@agentclientprotocol/sdk/unstable';
import { readConfined } from '../acp/confinedFs';
import { isInsideOrEqual, resolveWorkspacePath, WorkspacePathError } from '../acp/workspacePaths';
import { attachmentLabel, attachmentRefusal, embedsText, workspaceFile } from '../presentation';
import type { PromptCapabilities } from '../protocol/transcript';
import type { PathAttachment, PromptAttachment, WorkspaceFolderRef } from '../protocol/webviewMessages';

/** Larger files go as links: the agent can read them itself. */
const MAX_EMBEDDED_CHARS = 1_000_000;

export interface PromptContentDeps {
  readonly capabilities: PromptCapabilities;
  readonly folders: readonly WorkspaceFolderRef[];
  /** The text of an open editor for this file (unsaved changes included), when one is open. */
  readonly openDocumentText?: (absolutePath: string) => string | undefined;
}

/** A refusal the user should read: nothing of the prompt was sent. */
export class PromptContentError extends Error {}

/**
 * The absolute path of a workspace-relative path (`folder/rest` in a multi-root workspace, as VS Code
 * writes it), checked to stay inside the workspace folders, symbolic links included.
 */
export async function resolveWorkspaceRelative(relative: string, folders: readonly WorkspaceFolderRef[]): Promise<string> {
  if (folders.length === 0) throw new PromptContentError('No workspace folder is open.');
  if (path.isAbsolute(relative) || /^[a-zA-Z]:/.test(relative)) throw new PromptContentError(`"${relative}" is not a workspace-relative path.`);
  const absolute = workspaceFile(relative, { folders });
  if (absolute === undefined) throw new PromptContentError(`"${relative}" is not inside a workspace folder.`);
  try {
    return (await resolveWorkspacePath(absolute, folders.map((f) => f.path), { allowFolderItself: true })).path;
  } catch (error) {
    if (error instanceof WorkspacePathError) throw new PromptContentError(`Not attached: ${error.message}`);
    throw error;
  }
}

function lines(text: string, startLine: number, endLine: number): string {
  return text.split(/\r?\n/).slice(startLine - 1, endLine).join('\n');
}

/** The file's text when it can go embedded, or undefined (binary, too large, unreadable: it goes as a link). */
async function embeddableText(absolute: string, deps: PromptContentDeps): Promise<string | undefined> {
  const folders = deps.folders.map((f) => f.path);
  const text = deps.openDocumentText?.(absolute) ?? (await readConfined(absolute, (real) => folders.some((f) => isInsideOrEqual(real, f))).catch(() => undefined));
  if (text === undefined || text.length > MAX_EMBEDDED_CHARS || text.includes('\0')) return undefined;
  return text;
}

async function pathBlock(attachment: PathAttachment, deps: PromptContentDeps): Promise<ContentBlock> {
  const absolute = await resolveWorkspaceRelative(attachment.path, deps.folders);
  const fileUri = pathToFileURL(absolute).href;
  const selection = attachment.kind === 'selection' ? attachment : undefined;
  // Line ranges as Zed writes them: #L<start>:<end>, 1-based.
  const uri = selection ? `${fileUri}#L${selection.startLine}:${selection.endLine}` : fileUri;
  const name = selection ? attachmentLabel(attachment) : path.basename(absolute);
  if (embedsText(attachment.kind, deps.capabilities)) {
    const text = await embeddableText(absolute, deps);
    if (text !== undefined) {
      return { type: 'resource', resource: { uri, mimeType: 'text/plain', text: selection ? lines(text, selection.startLine, selection.endLine) : text } };
    }
  }
  return { type: 'resource_link', uri, name };
}

/** The content blocks for a prompt; throws PromptContentError (and sends nothing) when one cannot go. */
export async function promptBlocks(text: string, attachments: readonly PromptAttachment[], deps: PromptContentDeps): Promise<ContentBlock[]> {
  const blocks: ContentBlock[] = text.trim() === '' ? [] : [{ type: 'text', text }];
  for (const attachment of attachments) {
    const refusal = attachmentRefusal(attachment.kind, deps.capabilities);
    if (refusal) throw new PromptContentError(`"${attachmentLabel(attachment)}" was not sent: ${refusal}`);
    blocks.push('path' in attachment ? await pathBlock(attachment, deps) : { type: attachment.kind, mimeType: attachment.mimeType, data: attachment.data });
  }
  if (blocks.length === 0) throw new PromptContentError('The prompt is empty.');
  return blocks;
}
