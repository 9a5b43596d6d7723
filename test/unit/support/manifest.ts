// package.json as VS Code reads it: every `%key%` string replaced by its English text from package.nls.json.
// Shared by the tests that read what the extension contributes (settings, menus, keys, titles).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const PLACEHOLDER = /^%(.+)%$/;

function readJson(name: string): unknown {
  return JSON.parse(readFileSync(join(root, name), 'utf8'));
}

/** package.json as written, `%key%` placeholders included. */
export function rawManifest(): unknown {
  return readJson('package.json');
}

/** The English texts of package.json's placeholders, by key. */
export function manifestTexts(): Readonly<Record<string, string>> {
  return readJson('package.nls.json') as Record<string, string>;
}

/** The key of a `%key%` placeholder, or undefined for any other value. */
export function placeholderKey(value: unknown): string | undefined {
  return typeof value === 'string' ? PLACEHOLDER.exec(value)?.[1] : undefined;
}

/** package.json with its placeholders resolved, as the extension host reads it; a key without a text throws. */
export function manifest<T>(): T {
  const texts = manifestTexts();
  const resolve = (value: unknown): unknown => {
    const key = placeholderKey(value);
    if (key !== undefined) {
      const text = texts[key];
      if (text === undefined) throw new Error(`package.nls.json has no "${key}"`);
      return text;
    }
    if (Array.isArray(value)) return value.map(resolve);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
    return value;
  };
  return resolve(rawManifest()) as T;
}
