// The texts before and after an ACP v2 change, which carries only git patches: "after" is the file as it is
// now, "before" is that text with the session's patches undone, newest first. When the file changed since,
// a patch no longer applies and the reason says so; nothing is guessed.
import { applyPatch, parsePatch, reversePatch, type StructuredPatch } from 'diff';
import { patchNamesPath, stripPrefix } from '../presentation/gitPatch';

export type PatchedTexts =
  | { readonly before: string | null; readonly after: string }
  | { readonly problem: string };

/** The part of a git patch about the file at `filePath` (its new name, or its old one for a deleted file). */
function sectionFor(patchText: string, filePath: string): StructuredPatch | undefined {
  const sections = parsePatch(patchText);
  return sections.find((section) => {
    const name = stripPrefix(section.newFileName ?? '');
    const named = name === '/dev/null' ? stripPrefix(section.oldFileName ?? '') : name;
    return patchNamesPath(named, filePath);
  });
}

function createsFile(section: StructuredPatch): boolean {
  return section.isCreate === true || stripPrefix(section.oldFileName ?? '') === '/dev/null';
}

function deletesFile(section: StructuredPatch): boolean {
  return section.isDelete === true || stripPrefix(section.newFileName ?? '') === '/dev/null';
}

/**
 * `current` is the file's text now (null when it does not exist); `patches` are the git patches that changed
 * it, oldest first. Returns the text before the first patch (null for a file a patch created) and after the
 * last, or why they cannot be known.
 */
export function textsBeforePatches(current: string | null, patches: readonly string[], filePath: string): PatchedTexts {
  let text = current ?? '';
  let created = false;
  for (let i = patches.length - 1; i >= 0; i--) {
    let section: StructuredPatch | undefined;
    try {
      section = sectionFor(patches[i]!, filePath);
    } catch (error) {
      return { problem: `the agent's patch could not be read (${error instanceof Error ? error.message : String(error)})` };
    }
    if (!section) return { problem: 'the agent\'s patch does not name this file' };
    // A missing file is what a deleting patch leaves; any other patch means it went away afterwards.
    if (current === null && i === patches.length - 1 && !deletesFile(section)) return { problem: 'the file no longer exists' };
    const undone = applyPatch(text, reversePatch(section));
    if (undone === false) return { problem: 'the file changed after the agent\'s edit, so its patch no longer applies' };
    text = undone;
    created = createsFile(section);
  }
  return { before: created ? null : text, after: current ?? '' };
}
