// The texts before and after an ACP v2 change, which carries only git patches: "after" is the file as it is
// now, "before" is that text with the session's patches undone, newest first. When the file changed since,
// a patch no longer applies and the reason says so; nothing is guessed.
import { applyPatch, reversePatch } from 'diff';
import type { FilePatch } from '../store/gitPatches';
import { t } from '../presentation/l10n';

export type PatchedTexts =
  | { readonly before: string | null; readonly after: string }
  | { readonly problem: string };

/**
 * The file's texts as the patches say it went, oldest first: before the first patch (null for a file a patch
 * created), after each one, the last being `current`; or why they cannot be known. `current` is the file's text
 * now (null when it does not exist); `patches` are the file's sections of the patches that changed it, oldest first.
 */
export function textsAlongPatches(current: string | null, patches: readonly FilePatch[]): { readonly texts: readonly (string | null)[] } | { readonly problem: string } {
  const last = patches[patches.length - 1];
  if (!last) return { problem: t('the agent sent no patch for it') };
  // A missing file is what a deleting patch leaves; otherwise it went away afterwards, or came back.
  if (current === null && !last.deletes) return { problem: t('the file no longer exists') };
  if (current !== null && last.deletes) return { problem: t('the file was created again after the agent deleted it') };
  const texts: (string | null)[] = [current];
  let text = current ?? '';
  for (let i = patches.length - 1; i >= 0; i--) {
    const undone = applyPatch(text, reversePatch(patches[i]!.section));
    if (undone === false) return { problem: t("the file changed after the agent's edit, so its patch no longer applies") };
    text = undone;
    texts.unshift(i === 0 && patches[0]!.creates ? null : text);
  }
  return { texts };
}

/** The text before the first patch and after the last (see textsAlongPatches), or why they cannot be known. */
export function textsBeforePatches(current: string | null, patches: readonly FilePatch[]): PatchedTexts {
  const along = textsAlongPatches(current, patches);
  return 'problem' in along ? along : { before: along.texts[0]!, after: current ?? '' };
}
