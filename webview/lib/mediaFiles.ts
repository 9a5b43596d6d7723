// Pasted or dropped images and audio, read into attachments (base64, as ACP image/audio blocks carry them).
import type { MediaAttachment } from '../../src/protocol/webviewMessages';
import { t } from '../../src/presentation';

/** Larger media would not fit the message limits between webview and host. */
const MAX_MEDIA_BYTES = 15 * 1024 * 1024;



function mediaKind(mimeType: string): 'image' | 'audio' | undefined {
  if (/^image\/[\w.+-]+$/.test(mimeType)) return 'image';
  if (/^audio\/[\w.+-]+$/.test(mimeType)) return 'audio';
  return undefined;
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The attachment, or why the file cannot be one. */
export async function readMedia(file: File): Promise<MediaAttachment | string> {
  const kind = mediaKind(file.type);
  if (!kind) return file.name ? t('"{0}" is neither an image nor audio; attach workspace files with @.', file.name) : t('"The file" is neither an image nor audio; attach workspace files with @.');
  if (file.size > MAX_MEDIA_BYTES) return file.name ? t('"{0}" is larger than {1} MB.', file.name, MAX_MEDIA_BYTES / 1024 / 1024) : t('"The file" is larger than {0} MB.', MAX_MEDIA_BYTES / 1024 / 1024);
  const data = base64(new Uint8Array(await file.arrayBuffer()));
  return { kind, name: file.name || (kind === 'image' ? t('Pasted image') : t('Pasted audio')), mimeType: file.type, data };
}
