// Ctrl+Alt+X in the chat, in real Chromium: VS Code in a browser keeps every Ctrl/Cmd + X pressed in a
// webview for the browser's cut and never runs the keybinding, so the chat answers package.json's chord
// itself: it asks the host to cancel the chat's session and keeps the key from VS Code's forwarding.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isCancelChord, type ChordKeys } from '../../webview/lib/cancelChord';
import { manifest } from '../unit/support/manifest';
import { FeedLink } from './feedLink';
import { useHarness } from './harness';
import { ROOT, runningRoot } from './scenes';

const harness = useHarness();

/** package.json's keybinding of Cancel Focused Session: `key` (Windows, Linux) and `mac`. */
function cancelKeybinding(): { key: string; mac: string } {
  const binding = manifest<{ contributes: { keybindings: { command: string; key: string; mac: string }[] } }>().contributes.keybindings.find((k) => k.command === 'subchats.cancelFocused');
  assert.ok(binding, 'package.json binds subchats.cancelFocused');
  return binding;
}

/** A keybinding like `ctrl+alt+c` as the keydown it names (letter keys only). */
function keysOf(binding: string): ChordKeys {
  const parts = binding.split('+');
  const letter = parts.at(-1) ?? '';
  assert.match(letter, /^[a-z]$/, `a letter key: ${binding}`);
  return { ctrlKey: parts.includes('ctrl'), metaKey: parts.includes('cmd'), altKey: parts.includes('alt'), shiftKey: parts.includes('shift'), keyCode: letter.toUpperCase().charCodeAt(0), getModifierState: () => false };
}

/** The same keybinding as Playwright's key name (`Control+Alt+KeyX`). */
function playwrightKey(binding: string): string {
  const names: Record<string, string> = { ctrl: 'Control', alt: 'Alt', shift: 'Shift', cmd: 'Meta' };
  return binding
    .split('+')
    .map((part) => names[part] ?? `Key${part.toUpperCase()}`)
    .join('+');
}

describe('the cancel chord', () => {
  test('is package.json\'s key, Ctrl+Cmd on macOS, and nothing near it', () => {
    const { key, mac } = cancelKeybinding();
    assert.equal(isCancelChord(keysOf(key), false), true, key);
    assert.equal(isCancelChord(keysOf(mac), true), true, mac);
    assert.equal(isCancelChord(keysOf(key), true), false, 'on macOS the chord is Ctrl+Cmd');
    assert.equal(isCancelChord(keysOf(mac), false), false, 'elsewhere the chord is Ctrl+Alt');
    assert.equal(isCancelChord({ ...keysOf(mac), altKey: true }, true), false, 'Ctrl+Alt+Cmd on macOS is another chord');
    const plain = keysOf(key);
    assert.equal(isCancelChord({ ...plain, altKey: false }, false), false, 'Ctrl+X is cut');
    assert.equal(isCancelChord({ ...plain, shiftKey: true }, false), false, 'with Shift it is another chord');
    assert.equal(isCancelChord({ ...plain, keyCode: 86 }, false), false, 'another letter');
    const altGraph = { ...plain, getModifierState: (key: string) => key === 'AltGraph' };
    assert.equal(isCancelChord(altGraph, false), false, 'AltGr (reported as Ctrl+Alt) types a letter such as ź');
    assert.equal(isCancelChord({ ...keysOf(mac), getModifierState: altGraph.getModifierState }, true), true, 'on macOS AltGraph is not looked at');
  });

  test('AltGr+X types its letter (ź on a Polish layout) and a held chord cancels once', async () => {
    const chat = await harness().openChat();
    await FeedLink.showing(chat, runningRoot('Long turn').store, ROOT);
    const { ctrlKey, altKey, keyCode } = keysOf(cancelKeybinding().key);
    const code = `Key${String.fromCharCode(keyCode)}`;
    const input = chat.page.locator('#sc-prompt-input');
    await input.focus();
    // Windows and Linux layouts report AltGr as Ctrl+Alt, with AltGraph set; `repeat` is a held key.
    const press = (init: Pick<KeyboardEventInit, 'key' | 'ctrlKey' | 'altKey' | 'modifierAltGraph' | 'repeat'>) =>
      input.evaluate((box, { init, code, keyCode }) => {
        const event = new KeyboardEvent('keydown', { code, keyCode, bubbles: true, cancelable: true, ...init });
        const notPrevented = box.dispatchEvent(event);
        return { notPrevented, keyCode: event.keyCode, cancels: (window as unknown as { __posted: { type: string }[] }).__posted.filter((m) => m.type === 'cancel').length };
      }, { init, code, keyCode });
    assert.deepEqual(await press({ key: 'ź', ctrlKey, altKey, modifierAltGraph: true }), { notPrevented: true, keyCode, cancels: 0 });
    assert.deepEqual(await press({ key: 'x', ctrlKey, altKey }), { notPrevented: false, keyCode, cancels: 1 }, 'the chord itself cancels');
    assert.deepEqual(await press({ key: 'x', ctrlKey, altKey, repeat: true }), { notPrevented: false, keyCode, cancels: 1 }, 'held down it stays the chord but cancels no more');
    await chat.close();
  });

  test('in the prompt box it posts cancel for the chat\'s session, keeps the draft, and VS Code\'s forwarding never sees it', async () => {
    const chat = await harness().openChat();
    await FeedLink.showing(chat, runningRoot('Long turn', 'keep going').store, ROOT);
    const { page } = chat;
    // VS Code's webview host forwards keys from a listener on the window, in the bubble phase.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __forwarded: string[] }).__forwarded = seen;
      window.addEventListener('keydown', (e) => seen.push(`${e.ctrlKey ? 'Ctrl+' : ''}${e.altKey ? 'Alt+' : ''}${e.code}`));
    });
    const forwarded = () => page.evaluate(() => (window as unknown as { __forwarded: string[] }).__forwarded.filter((k) => k.endsWith('KeyX')));
    const input = page.locator('#sc-prompt-input');
    await input.fill('a draft');
    await input.press(playwrightKey(cancelKeybinding().key));
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'cancel'), { type: 'cancel', sessionId: ROOT });
    assert.equal(await input.inputValue(), 'a draft');
    assert.deepEqual(await forwarded(), [], 'the chord stops in the chat');

    // Ctrl+X stays cut (VS Code's to handle); focus outside the prompt box, the chord still cancels.
    await input.press('Control+KeyX');
    await page.locator('subchats-transcript').click();
    await page.keyboard.press(playwrightKey(cancelKeybinding().key));
    await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.filter((m) => m.type === 'cancel').length === 2);
    assert.deepEqual(await forwarded(), ['Ctrl+KeyX'], 'only the plain Ctrl+X went on');
    assert.equal((await chat.posted()).filter((m) => m.type === 'cancel').length, 2);
    await chat.close();
  });
});
