// The page a chat shows once its own page failed to load too often (src/webviews/chatHtml.ts): text only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildChatLoadFailedHtml } from '../../src/webviews/chatHtml';

test('the load-failure page runs nothing, loads nothing, and shows its message as text', () => {
  const html = buildChatLoadFailedHtml({ title: 'Subchats', language: 'en', message: 'webview.js <img src=x onerror=alert(1)> did not load' });
  assert.doesNotMatch(html, /<script|<img|<link/i);
  assert.match(html, /content="default-src 'none'"/);
  assert.match(html, /<p role="alert">webview\.js &#60;img src=x onerror=alert\(1\)&#62; did not load<\/p>/);
});
