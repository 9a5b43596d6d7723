// Reads a colour theme's token colours from its file as VS Code does: the file is JSONC, may `include` another
// theme file (relative to it) whose rules come first, and its `semanticTokenColors` override the included
// ones. A theme whose `tokenColors` names a TextMate `.tmTheme` file is not read (its rules stay unknown).
// No VS Code here: the caller passes how to read a file.
import { parse, type ParseError } from 'jsonc-parser';
import * as path from 'node:path';
import type { ThemeTokenColors, ThemeTokenRule } from './themeTokenColors';

/** Deeper include chains than this are taken for a loop. */
const MAX_INCLUDES = 8;

type ReadFile = (filePath: string) => Promise<string>;

/** The token colours of the theme file at `filePath` (a POSIX path), or undefined when it has none that can be read. */
export async function readThemeTokenColors(filePath: string, read: ReadFile): Promise<ThemeTokenColors | undefined> {
  const merged = await readWithIncludes(filePath, read, 0);
  return merged.rules.length > 0 || Object.keys(merged.semantic).length > 0 ? merged : undefined;
}

async function readWithIncludes(filePath: string, read: ReadFile, depth: number): Promise<{ rules: ThemeTokenRule[]; semantic: Record<string, unknown> }> {
  const errors: ParseError[] = [];
  const theme: unknown = parse(await read(filePath), errors, { allowTrailingComma: true });
  if (errors.length > 0 || typeof theme !== 'object' || theme === null) throw new Error(`${path.posix.basename(filePath)} is not a colour theme (JSON with comments)`);
  const { include, tokenColors, semanticTokenColors } = theme as Record<string, unknown>;
  const base =
    typeof include === 'string' && depth < MAX_INCLUDES
      ? await readWithIncludes(path.posix.join(path.posix.dirname(filePath), include), read, depth + 1)
      : { rules: [], semantic: {} };
  const rules = Array.isArray(tokenColors) ? tokenColors.filter((r): r is ThemeTokenRule => typeof r === 'object' && r !== null) : [];
  const semantic = typeof semanticTokenColors === 'object' && semanticTokenColors !== null ? (semanticTokenColors as Record<string, unknown>) : {};
  return { rules: [...base.rules, ...rules], semantic: { ...base.semantic, ...semantic } };
}
