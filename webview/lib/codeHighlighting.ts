// Syntax highlighting for the chat's code blocks, kept off the streaming path. Only finished blocks (a whole
// fenced block, or a finished piece of a long one) are offered, never the open one that grows with each chunk;
// each is highlighted once, when it first comes near the screen, in an idle moment long enough for it (a long
// transcript costs nothing for the blocks nobody scrolls to, and a stream is never slowed for colour). The
// highlighter and each language are chunks of their own, loaded when a block first needs them. Highlighting
// only wraps the block's text in spans: the `pre` says exactly what it said before.
import { codeTokenCss, codeTokenKind } from '../../src/presentation';
import { highlightLanguage, type HighlightLanguage } from './highlightLanguages';
import type * as HighlighterModule from './highlighter';
import { MAX_BLOCK_CHARS } from './markdownBlocks';

type Highlighter = typeof HighlighterModule;

/** Where the build puts the highlighter (scripts/build.mjs): beside this bundle, loaded on first need. */
const HIGHLIGHTER_URL = new URL('./webview-chunks/highlighter.js', import.meta.url).href;

/** Blocks longer than this are left plain (pieces of a long block are at most MAX_BLOCK_CHARS and a line end). */
const MAX_HIGHLIGHT_CHARS = MAX_BLOCK_CHARS + 1;
/** Starts highlighting a block this far before it scrolls into view. */
const NEAR_SCREEN = '300px 0px';
/**
 * What highlighting costs, roughly, per character (tokens and spans: 13-31 ms for a 16 KB piece of TypeScript on
 * a loaded 2-core machine), to start a block only in an idle moment long enough for it.
 */
const MS_PER_CHAR = 2 / 1024;
/** The longest idle moment the browser gives is 50 ms; a block that needs more runs in one that long anyway. */
const LONGEST_IDLE_MS = 40;

const LANGUAGE_CLASS = /(?:^|\s)language-([\w-]+)(?:\s|$)/;

/**
 * A chunk that fails to load (a request lost or timed out on a loaded machine: in VS Code a webview's files come
 * through its service worker and the extension host) is tried again after this long, doubled each time, up to
 * LOAD_TRIES in all; then the language stays plain on this page.
 */
const LOAD_RETRY_MS = 1_000;
const LOAD_TRIES = 3;

let highlighter: Highlighter | undefined;
let highlighterLoad: Promise<Highlighter> | undefined;
/** Failed loads of the highlighter so far: a new try asks for a new URL (a browser may keep a failed module's). */
let highlighterFailures = 0;
/** Languages registered with the highlighter, being loaded, and the failed loads of each so far. */
const registered = new Set<HighlightLanguage>();
const loading = new Map<HighlightLanguage, Promise<boolean>>();
const failures = new Map<HighlightLanguage, number>();

/** A language that failed to load LOAD_TRIES times stays plain on this page. */
function givenUp(language: HighlightLanguage): boolean {
  return (failures.get(language) ?? 0) >= LOAD_TRIES;
}
/** Shown blocks waiting for an idle moment. */
const waiting: HTMLElement[] = [];
let idleRequested = false;
let observer: IntersectionObserver | undefined;

const classes = new Map<string, string | undefined>();

/** The class of a highlighter scope's span (one per kind of token; see codeTokenStyles). */
function classOf(scope: string): string | undefined {
  if (!classes.has(scope)) {
    const kind = codeTokenKind(scope);
    classes.set(scope, kind ? codeTokenCss(kind).className : undefined);
  }
  return classes.get(scope);
}

/** The language a `code` element is highlighted in, if the chat highlights it. */
function languageOf(code: Element): HighlightLanguage | undefined {
  const lang = LANGUAGE_CLASS.exec(code.className)?.[1];
  const name = lang !== undefined ? highlightLanguage(lang) : undefined;
  return name !== undefined && !givenUp(name) ? name : undefined;
}

/**
 * Offers the finished code blocks in `root` (a block's fragment or its nodes) for highlighting: each is
 * highlighted when it first comes near the screen.
 */
export function highlightWhenShown(root: ParentNode): void {
  for (const code of root.querySelectorAll<HTMLElement>('pre > code[class*="language-"]')) {
    if (languageOf(code) === undefined || (code.textContent?.length ?? 0) > MAX_HIGHLIGHT_CHARS) continue;
    observer ??= new IntersectionObserver(onShown, { rootMargin: NEAR_SCREEN });
    observer.observe(code);
  }
}

function onShown(entries: IntersectionObserverEntry[]): void {
  for (const entry of entries) {
    if (!entry.isIntersecting) continue;
    observer?.unobserve(entry.target);
    waiting.push(entry.target as HTMLElement);
  }
  requestIdle();
}

function requestIdle(): void {
  if (idleRequested || waiting.length === 0) return;
  idleRequested = true;
  // No timeout: colour never competes with text streaming in; a block waits for the stream to pause.
  requestIdleCallback(highlightWaiting);
}

/** Highlights waiting blocks while the idle moment has time for the next one. */
function highlightWaiting(deadline: IdleDeadline): void {
  idleRequested = false;
  for (let next = waiting[0]; next; next = waiting[0]) {
    const cost = Math.min(LONGEST_IDLE_MS, (next.textContent?.length ?? 0) * MS_PER_CHAR);
    if (deadline.timeRemaining() < cost) break;
    waiting.shift();
    highlightBlock(next);
  }
  requestIdle();
}

/** Highlights a shown block now, or once its language has loaded. */
function highlightBlock(code: HTMLElement): void {
  const language = languageOf(code);
  if (!code.isConnected || language === undefined) return;
  if (!highlighter || !registered.has(language)) {
    void load(language).then((loaded) => {
      const again = (): void => {
        waiting.push(code);
        requestIdle();
      };
      if (loaded) again();
      else if (!givenUp(language)) setTimeout(again, LOAD_RETRY_MS * 2 ** ((failures.get(language) ?? 1) - 1));
    });
    return;
  }
  const text = code.textContent ?? '';
  const highlighted = highlighter.highlight(text, language, classOf);
  // Never change what the block says.
  if (highlighted.textContent === text) code.replaceChildren(highlighted);
}

/**
 * Loads the highlighter and a language (each once); true once both are there. A failed load is forgotten, so the
 * next call tries again; after LOAD_TRIES failures the language is left plain from then on.
 */
function load(language: HighlightLanguage): Promise<boolean> {
  let pending = loading.get(language);
  if (!pending) {
    const url = highlighterFailures === 0 ? HIGHLIGHTER_URL : `${HIGHLIGHTER_URL}?try=${highlighterFailures + 1}`;
    const core = (highlighterLoad ??= (import(url) as Promise<Highlighter>).catch((error: unknown) => {
      highlighterLoad = undefined;
      highlighterFailures++;
      throw error;
    }));
    pending = core
      .then(async (loaded) => {
        await loaded.loadLanguage(language);
        highlighter = loaded;
        registered.add(language);
        return true;
      })
      .catch(() => {
        loading.delete(language);
        failures.set(language, (failures.get(language) ?? 0) + 1);
        return false;
      });
    loading.set(language, pending);
  }
  return pending;
}
