// Command output mirrored into a VS Code terminal: text and SGR colours pass, every escape that could act
// (OSC 8 links to command:/vscode:, OSC 52 clipboard, titles, DCS, private modes, resets) is dropped, and a
// sequence split across chunks is handled the same as a whole one, with bounded state between chunks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TerminalOutputFilter } from '../../src/presentation';

const ESC = '\x1b';
const BEL = '\x07';
const ST = `${ESC}\\`;

function filterAll(chunks: readonly string[]): string {
  const filter = new TerminalOutputFilter();
  return chunks.map((chunk) => filter.write(chunk)).join('');
}

/** Every way to cut `text` into two chunks gives the same output as the whole. */
function assertSplitInvariant(text: string, expected: string): void {
  assert.equal(filterAll([text]), expected, 'whole');
  for (let cut = 0; cut <= text.length; cut++) {
    assert.equal(filterAll([text.slice(0, cut), text.slice(cut)]), expected, `cut at ${cut}: ${JSON.stringify(text.slice(0, cut))}`);
  }
  assert.equal(filterAll([...text]), expected, 'one character per chunk');
}

test('plain text and line breaks: a lone LF becomes CRLF, a CRLF stays one', () => {
  assertSplitInvariant('a\nb\r\nc\td\re', 'a\r\nb\r\nc\td\re');
});

test('SGR colours pass unchanged', () => {
  const coloured = `${ESC}[1;31mred${ESC}[0m ${ESC}[38;2;10;20;30mrgb${ESC}[38:5:208mx${ESC}[m`;
  assertSplitInvariant(coloured, coloured);
});

test('OSC 8 hyperlinks keep their visible text and lose the link, whatever the target and terminator', () => {
  for (const target of ['command:workbench.action.terminal.new', 'vscode://subchats.subchats/x', 'https://example.com', 'file:///etc/passwd']) {
    assertSplitInvariant(`see ${ESC}]8;;${target}${BEL}click me${ESC}]8;;${BEL} now`, 'see click me now');
    assertSplitInvariant(`${ESC}]8;id=1;${target}${ST}here${ESC}]8;;${ST}`, 'here');
    // 8-bit C1 forms: OSC (U+009D) and ST (U+009C).
    assertSplitInvariant(`\u009d8;;${target}\u009chere\u009d8;;\u009c`, 'here');
  }
});

test('OSC 52 clipboard, titles and other OSC are dropped', () => {
  assertSplitInvariant(`a${ESC}]52;c;${Buffer.from('rm -rf ~').toString('base64')}${BEL}b`, 'ab');
  assertSplitInvariant(`a${ESC}]0;Fake title${ST}b${ESC}]2;t${BEL}c`, 'abc');
  assertSplitInvariant(`a${ESC}]633;E;fake command${BEL}b${ESC}]1337;File=x${BEL}c`, 'abc');
});

test('DCS, SOS, PM and APC strings are dropped', () => {
  assertSplitInvariant(`a${ESC}Pq#0;2;0;0;0${ST}b${ESC}_apc${ST}c${ESC}^pm${ST}d${ESC}Xsos${ST}e`, 'abcde');
  assertSplitInvariant(`a\u0090dcs\u009cb\u009fapc\u009cc`, 'abc');
});

test('CSI other than SGR (clear screen, cursor moves, private modes, reports) is dropped', () => {
  assertSplitInvariant(`a${ESC}[2Jb${ESC}[10;10Hc${ESC}[?1049hd${ESC}[?1000he${ESC}[6nf${ESC}[21tg`, 'abcdefg');
  assertSplitInvariant(`a\u009b2Jb\u009b31mc`, 'ab\x1b[31mc');
  // An SGR-looking sequence with a private prefix or intermediates is not SGR.
  assertSplitInvariant(`a${ESC}[>4;2mb${ESC}[ mc`, 'abc');
});

test('two-character escapes (reset, charsets, save/restore) and stray controls are dropped', () => {
  assertSplitInvariant(`a${ESC}cb${ESC}(0c${ESC}#8d${ESC}7e${ESC}8f`, 'abcdef');
  assertSplitInvariant(`a${BEL}b\x0ec\x0fd\x7fe\u0085f`, 'abcdef');
  assertSplitInvariant('a\bb', 'a\bb');
});

test('an unterminated OSC swallows what follows until its terminator, and a new ESC ends it (as xterm does)', () => {
  assertSplitInvariant(`a${ESC}]8;;command:x text`, 'a');
  assertSplitInvariant(`a${ESC}]8;;command:x${ESC}[31mb`, 'a\x1b[31mb');
  // CAN and SUB cancel a sequence.
  assertSplitInvariant(`a${ESC}]52;c;x\x18b${ESC}[12\x1ac`, 'abc');
});

test('state held between chunks stays bounded however long a sequence runs', () => {
  const filter = new TerminalOutputFilter();
  const chunk = 'A'.repeat(1024);
  assert.equal(filter.write(`${ESC}]52;c;`), '');
  for (let i = 0; i < 2000; i++) assert.equal(filter.write(chunk), '');
  assert.ok(filter.heldLength <= 64, `held ${filter.heldLength}`);
  assert.equal(filter.write(`${BEL}after`), 'after');

  assert.equal(filter.write(`${ESC}[`), '');
  for (let i = 0; i < 2000; i++) assert.equal(filter.write('1;'.repeat(512)), '');
  assert.ok(filter.heldLength <= 64, `held ${filter.heldLength}`);
  // An SGR too long to be ordinary is dropped, not passed on.
  assert.equal(filter.write('mok'), 'ok');
});
