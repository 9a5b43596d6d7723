// An ACP v2 diff's git patch (`patch: {format: "git_patch", text}`), read once: per file, its section (what
// Open Changes undoes), the lines it adds and removes (what Changes lists count) and whether it creates or
// deletes the file. Parsed with jsdiff; one parse per diff item, kept as long as the item is.
import { parsePatch, type StructuredPatch } from 'diff';

export interface FilePatch {
  /** The file as the patch names it, without the `a/`/`b/` prefix (the old name for a deleted file). */
  readonly name: string;
  readonly section: StructuredPatch;
  readonly added: number;
  readonly removed: number;
  readonly creates: boolean;
  readonly deletes: boolean;
}

const parsedByItem = new WeakMap<object, readonly FilePatch[]>();

/** The per-file sections of the patch a v2 diff item carries (none without one, or when it cannot be read). */
export function filePatchesOf(item: object): readonly FilePatch[] {
  let parsed = parsedByItem.get(item);
  if (!parsed) {
    const patch = (item as Record<string, unknown>)['patch'];
    const text = typeof patch === 'object' && patch !== null ? (patch as Record<string, unknown>)['text'] : undefined;
    parsed = typeof text === 'string' ? readPatch(text) : [];
    parsedByItem.set(item, parsed);
  }
  return parsed;
}

/** Each file section of a git patch; nothing when jsdiff cannot read it (agent text, never trusted to parse). */
export function readPatch(text: string): readonly FilePatch[] {
  let sections: StructuredPatch[];
  try {
    sections = parsePatch(text);
  } catch {
    return [];
  }
  return sections.flatMap((section) => {
    const from = stripPrefix(section.oldFileName ?? '');
    const to = stripPrefix(section.newFileName ?? '');
    const deletes = section.isDelete === true || to === '/dev/null';
    const creates = section.isCreate === true || from === '/dev/null';
    const name = deletes ? from : to;
    if (!name || name === '/dev/null') return [];
    let added = 0;
    let removed = 0;
    for (const hunk of section.hunks) {
      for (const line of hunk.lines) {
        if (line.startsWith('+')) added++;
        else if (line.startsWith('-')) removed++;
      }
    }
    return [{ name, section, added, removed, creates, deletes }];
  });
}

/**
 * The section about the file at `path` (absolute or relative): the one whose name is the path, else the
 * longest name the path ends with (a patch names files relative to the repository, an ACP diff by absolute
 * path; `notes.md` and `src/notes.md` in one patch are told apart).
 */
export function patchFor(patches: readonly FilePatch[], path: string): FilePatch | undefined {
  const normalized = path.replace(/\\/g, '/');
  let best: FilePatch | undefined;
  for (const patch of patches) {
    if (normalized === patch.name) return patch;
    if (normalized.endsWith(`/${patch.name}`) && (!best || patch.name.length > best.name.length)) best = patch;
  }
  return best;
}

/** A file name as a patch's `---`/`+++` line gives it: without a trailing tab part and the `a/`/`b/` prefix. */
function stripPrefix(name: string): string {
  const trimmed = name.replace(/\t.*$/, '').trim();
  return /^[ab]\//.test(trimmed) ? trimmed.slice(2) : trimmed;
}
