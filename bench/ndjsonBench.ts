// NDJSON reader benchmark: one huge line from the agent, fed in 64 KiB pipe-sized chunks, through the reader
// before issue 10 (one growing string, rescanned) and the current one (each chunk scanned once, joined once).
// Each case runs in its own process for its time and peak memory. Usage as a child:
//   node --import tsx bench/ndjsonBench.ts <before|after> <line|endless> <megabytes> <cap megabytes>
import { PassThrough } from 'node:stream';
import { DEFAULT_MAX_LINE_LENGTH, NdjsonMessageReader } from '../src/acp/ndjson';
import { NdjsonMessageReaderBefore } from './baselines/ndjsonReaderBefore';
import { measureInChild, reportFromChild, type ChildMeasurement } from './childMeasure';

const CHUNK = 64 * 1024;
const MB = 1024 * 1024;

export interface NdjsonCase {
  readonly label: string;
  /** `feed`: no reader, the chunks are dropped as they come (the memory the input itself costs). */
  readonly reader: 'before' | 'after' | 'feed';
  /** `line`: one message of `megabytes` ending in a newline; `endless`: `megabytes` that never end a line. */
  readonly shape: 'line' | 'endless';
  readonly megabytes: number;
  /** Line cap given to the reader (MB); `default` is the reader's own. */
  readonly capMB: number | 'default';
}

export interface NdjsonRow extends NdjsonCase, ChildMeasurement {}

function feed(shape: NdjsonCase['shape'], megabytes: number, emit: (chunk: Buffer) => void): void {
  const head = Buffer.from('{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"');
  const tail = Buffer.from(shape === 'line' ? '"}}}}\n{"jsonrpc":"2.0","method":"after"}\n' : '');
  const filler = Buffer.alloc(CHUNK, 'x');
  emit(Buffer.from(head));
  for (let sent = head.length; sent < megabytes * MB - tail.length; sent += CHUNK) emit(Buffer.from(filler)); // a fresh buffer per chunk, as a pipe delivers
  if (tail.length) emit(tail);
}

async function runChild(reader: NdjsonCase['reader'], shape: NdjsonCase['shape'], megabytes: number, cap: number | undefined): Promise<void> {
  const input = new PassThrough();
  if (reader === 'feed') {
    input.on('data', () => undefined);
    await reportFromChild(() => feed(shape, megabytes, (chunk) => input.emit('data', chunk)));
    return;
  }
  let last = '';
  const hooks = { onInvalidLine: () => undefined };
  const instance = reader === 'before' ? new NdjsonMessageReaderBefore(input, hooks, cap) : new NdjsonMessageReader(input, hooks, cap);
  instance.listen((message) => (last = (message as { method?: string }).method ?? ''));
  await reportFromChild(() => feed(shape, megabytes, (chunk) => input.emit('data', chunk)));
  if (shape === 'line' && last !== 'after') throw new Error('the reader did not go on after the long line');
}

export function runNdjsonBench(cases: readonly NdjsonCase[]): NdjsonRow[] {
  return cases.map((c) => ({ ...c, ...measureInChild(__filename, [c.reader, c.shape, String(c.megabytes), String(c.capMB)]) }));
}

export function ndjsonCases(quick: boolean, fullBaseline: boolean): NdjsonCase[] {
  const line = quick ? 10 : 100;
  const endless = quick ? 20 : 200;
  // The old reader is quadratic (about 50 s and 137 s at full size): by default it runs at a tenth of the size.
  const beforeScale = fullBaseline ? 1 : 0.1;
  const cases: NdjsonCase[] = [];
  for (const reader of ['before', 'after'] as const) {
    const scale = reader === 'before' ? beforeScale : 1;
    const sizes = reader === 'after' && beforeScale !== 1 ? [beforeScale, 1] : [scale];
    for (const s of sizes) {
      cases.push({ label: `one ${line * s} MB line, default cap`, reader, shape: 'line', megabytes: line * s, capMB: 'default' });
      cases.push({ label: `one ${line * s} MB line, cap raised (parsed)`, reader, shape: 'line', megabytes: line * s, capMB: 512 });
      cases.push({ label: `${endless * s} MB without a newline, default cap`, reader, shape: 'endless', megabytes: endless * s, capMB: 'default' });
    }
  }
  // What feeding the input costs without any reader: fresh 64 KiB buffers, garbage until the collector runs.
  cases.push({ label: `one ${line} MB line, input only`, reader: 'feed', shape: 'line', megabytes: line, capMB: 'default' });
  cases.push({ label: `${endless} MB without a newline, input only`, reader: 'feed', shape: 'endless', megabytes: endless, capMB: 'default' });
  return cases;
}

export const NDJSON_DEFAULT_CAP_MB = DEFAULT_MAX_LINE_LENGTH / MB;

if (require.main === module) {
  const [reader, shape, megabytes, cap] = process.argv.slice(2);
  runChild(reader as NdjsonCase['reader'], shape as NdjsonCase['shape'], Number(megabytes), cap === 'default' ? undefined : Number(cap) * MB).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
