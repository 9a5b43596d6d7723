// Key chords as VS Code reads them, to find a Subchats keybinding that takes a key VS Code itself binds.
// Shared by the unit test (recorded defaults of every OS, test/fixtures/vscode-keybindings) and the
// extension host test (the running VS Code's own default keybindings document).

export type Platform = 'linux' | 'mac' | 'windows';

export interface Keybinding {
  readonly command: string;
  readonly key: string;
  readonly mac?: string;
  readonly linux?: string;
  readonly win?: string;
}

/** The key a contributed keybinding has on `platform`: its OS-specific key, else `key` (as VS Code picks it). */
export function keyOn(binding: Keybinding, platform: Platform): string {
  const specific = platform === 'mac' ? binding.mac : platform === 'linux' ? binding.linux : binding.win;
  return specific ?? binding.key;
}

/**
 * The defaults `key` collides with: the same chords, or one sequence the start of the other (after
 * `ctrl+k` VS Code waits for the next chord, so a `ctrl+k` of ours would take every `ctrl+k …`).
 */
export function collisions(key: string, defaults: Iterable<string>): string[] {
  const ours = chordsOf(key);
  return [...new Set(defaults)].filter((other) => {
    const theirs = chordsOf(other);
    const shared = Math.min(ours.length, theirs.length);
    return ours.slice(0, shared).every((chord, i) => chord === theirs[i]);
  });
}

/**
 * The `key`s of a default keybindings document as VS Code shows it (JSON whose comments are whole `//`
 * lines), leaving out the commands `skip` accepts (the extension's own keybindings are listed there too).
 */
export function documentKeys(text: string, skip: (command: string) => boolean = () => false): string[] {
  const json = text.split('\n').filter((line) => !line.trimStart().startsWith('//')).join('\n');
  const entries = JSON.parse(json) as { key: string; command: string }[];
  return entries.filter((entry) => !skip(entry.command)).map((entry) => entry.key);
}

/** A key sequence (`ctrl+k ctrl+c`) as its chords, modifiers in one order, Cmd, Win and Meta one key. */
function chordsOf(key: string): string[] {
  return key.toLowerCase().trim().split(/\s+/).map((chord) => {
    const parts = chord.split('+');
    const modifiers = parts.slice(0, -1).map((m) => (m === 'cmd' || m === 'win' ? 'meta' : m));
    return [...modifiers.sort(), parts.at(-1)].join('+');
  });
}
