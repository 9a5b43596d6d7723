// What a prompt may carry to an agent, one rule for the prompt box (which says why a chip cannot go) and the
// host (which never sends it): text, resource links, files and selections always; media only when advertised.
import type { PromptCapabilities } from '../protocol/transcript';
import type { PromptAttachment } from '../protocol/webviewMessages';
import { t } from './l10n';

/** Why this attachment cannot be sent to the agent, or undefined when it can. */
export function attachmentRefusal(kind: PromptAttachment['kind'], capabilities: PromptCapabilities): string | undefined {
  if (kind === 'image' && !capabilities.image) return t('The agent does not accept images (it did not advertise promptCapabilities.image).');
  if (kind === 'audio' && !capabilities.audio) return t('The agent does not accept audio (it did not advertise promptCapabilities.audio).');
  return undefined;
}

/** Whether a file or selection goes with its text (`resource`) or as a link the agent reads itself (`resource_link`). */
export function embedsText(kind: PromptAttachment['kind'], capabilities: PromptCapabilities): boolean {
  return (kind === 'file' || kind === 'selection') && capabilities.embeddedContext;
}

/** A chip's words: the file's name, with its lines for a selection. */
export function attachmentLabel(attachment: PromptAttachment): string {
  if (!('path' in attachment)) return attachment.name;
  const name = attachment.path.split(/[\\/]/).filter(Boolean).pop() ?? attachment.path;
  if (attachment.kind === 'folder') return `${name}/`;
  if (attachment.kind === 'selection') return attachment.startLine === attachment.endLine ? `${name}:${attachment.startLine}` : `${name}:${attachment.startLine}-${attachment.endLine}`;
  return name;
}
