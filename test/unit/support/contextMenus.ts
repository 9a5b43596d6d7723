// The tree's context menus as VS Code offers them: package.json's `view/item/context` entries whose `when` clause
// holds for a tree item's contextValue. Shared by the unit tests (package.json read from disk) and the extension
// host tests (the installed extension's packageJSON).
import { manifest } from './manifest';

export interface MenuEntry {
  readonly command: string;
  readonly when?: string;
  readonly group?: string;
}

export const VIEW_ID = 'subchats.sessions';

/**
 * Evaluates the when clauses this package uses (`view == X`, `viewItem =~ /re/`, the extension's own context keys
 * `subchats.x.y` and `!subchats.x.y`, joined by `&&`) the way VS Code does for a tree item or a view's title
 * bar; a key not given is unset. Anything else throws, so a new kind of clause gets a test of its own.
 */
export function whenHolds(when: string, context: { view: string; viewItem?: string; keys?: Readonly<Record<string, boolean>> }): boolean {
  return when.split('&&').every((raw) => {
    const clause = raw.trim();
    const equals = /^view\s*==\s*([\w.-]+)$/.exec(clause);
    if (equals) return context.view === equals[1];
    const matches = /^viewItem\s*=~\s*\/(.*)\/([a-z]*)$/.exec(clause);
    if (matches) return context.viewItem !== undefined && new RegExp(matches[1]!, matches[2]).test(context.viewItem);
    const key = /^(!?)(subchats(?:\.\w+)+)$/.exec(clause);
    if (key) return (context.keys?.[key[2]!] === true) !== (key[1] === '!');
    throw new Error(`when clause "${clause}" is not understood by this test`);
  });
}

/** The commands the item context menu (and inline actions) offer for a tree item, sorted. */
export function offeredBy(entries: readonly MenuEntry[], contextValue: string): string[] {
  const commands = entries.filter((e) => whenHolds(e.when ?? 'true', { view: VIEW_ID, viewItem: contextValue })).map((e) => e.command);
  return [...new Set(commands)].sort();
}

/** The item context menu entries of the package.json in this checkout. */
export function itemMenusOnDisk(): MenuEntry[] {
  return menusOnDisk('view/item/context');
}

/** A menu's entries in the package.json of this checkout. */
export function menusOnDisk(menu: string): MenuEntry[] {
  return manifest<{ contributes: { menus: Record<string, MenuEntry[]> } }>().contributes.menus[menu] ?? [];
}
