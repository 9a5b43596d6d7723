// The SDK's ACP v2 JSON schemas (test time only): validates one JSON-RPC message of a v2 connection by its
// method, its direction and, for a response, the method of the request it answers.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Ajv2020 from 'ajv/dist/2020';
import type { ValidateFunction } from 'ajv';

type Json = Record<string, unknown>;
export type WireDirection = 'client->agent' | 'agent->client';

const require_ = createRequire(__filename);
const SCHEMA_PATH = require_.resolve('@agentclientprotocol/sdk/schema/v2/schema.unstable.json');
const SCHEMA = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as { $defs: Record<string, Json & { 'x-method'?: string; 'x-side'?: string }> };

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
ajv.addSchema({ ...SCHEMA, $id: 'acp-v2' });

/** `${side}\0${method}\0${what}` → the definition that describes it (`x-side` is who handles the method). */
const BY_METHOD = new Map<string, string>();
for (const [name, def] of Object.entries(SCHEMA.$defs)) {
  if (!def['x-method']) continue;
  const what = name.endsWith('Response') ? 'result' : 'params';
  BY_METHOD.set(`${def['x-side']}\0${def['x-method']}\0${what}`, name);
}

const compiled = new Map<string, ValidateFunction>();
function validatorFor(defName: string): ValidateFunction {
  let fn = compiled.get(defName);
  if (!fn) {
    fn = ajv.getSchema(`acp-v2#/$defs/${defName}`)!;
    compiled.set(defName, fn);
  }
  return fn;
}

/** Who handles a request sent in this direction. */
function handlerOf(direction: WireDirection): 'agent' | 'client' {
  return direction === 'client->agent' ? 'agent' : 'client';
}

export interface SchemaCheck {
  readonly ok: boolean;
  /** The definition checked against, or why the message was not checked (an extension method). */
  readonly checked: string;
  readonly errors?: string;
}

/**
 * Checks one message. `requestMethod` is the method of the request a response answers; `direction` is the
 * message's own direction. Extension methods (`_…`) are outside the schema: reported as not checked.
 */
export function checkV2Message(message: Json, direction: WireDirection, requestMethod?: string): SchemaCheck {
  if (message['jsonrpc'] !== '2.0') return { ok: false, checked: 'jsonrpc', errors: 'jsonrpc is not "2.0"' };
  const method = typeof message['method'] === 'string' ? message['method'] : requestMethod;
  if (!method) return { ok: false, checked: 'method', errors: 'response to an unknown request' };
  if (method.startsWith('_')) return { ok: true, checked: `extension ${method}` };
  const isResponse = !('method' in message);
  if (isResponse && 'error' in message) return check('ErrorOnly', message, validateError);
  const side = method === '$/cancel_request' ? 'protocol' : isResponse ? handlerOf(direction === 'client->agent' ? 'agent->client' : 'client->agent') : handlerOf(direction);
  const defName = BY_METHOD.get(`${side}\0${method}\0${isResponse ? 'result' : 'params'}`);
  if (!defName) return { ok: false, checked: method, errors: `no v2 definition for ${side} ${method}` };
  const value = isResponse ? message['result'] : (message['params'] ?? null);
  return check(defName, value, validatorFor(defName));
}

function validateError(message: unknown): boolean {
  const error = (message as Json)['error'] as Json | undefined;
  return typeof error?.['code'] === 'number' && typeof error['message'] === 'string';
}

function check(defName: string, value: unknown, validate: (v: unknown) => boolean | PromiseLike<unknown>): SchemaCheck {
  const ok = validate(value) === true;
  const errors = (validate as Partial<ValidateFunction>).errors;
  return ok ? { ok, checked: defName } : { ok, checked: defName, errors: JSON.stringify(errors ?? 'invalid').slice(0, 800) };
}

/**
 * Checks every message of a v2 connection, in wire order, pairing responses with their requests by direction
 * and id. Returns one line per message that fails.
 */
export function checkV2Messages(entries: readonly { message: Json; direction: WireDirection }[]): { failures: string[]; checked: number } {
  const open = new Map<string, string>();
  const failures: string[] = [];
  entries.forEach(({ message, direction }, i) => {
    const id = JSON.stringify(message['id']);
    let requestMethod: string | undefined;
    if (typeof message['method'] === 'string' && message['id'] !== undefined) open.set(`${direction}\0${id}`, message['method']);
    else if (!('method' in message)) {
      const key = `${direction === 'client->agent' ? 'agent->client' : 'client->agent'}\0${id}`;
      requestMethod = open.get(key);
      open.delete(key);
    }
    const result = checkV2Message(message, direction, requestMethod);
    if (!result.ok) failures.push(`#${i + 1} ${direction} (${result.checked}): ${result.errors}`);
  });
  return { failures, checked: entries.length };
}

/** A wrapped transcript ({dir, msg} per line), checked message by message. */
export function checkV2Transcript(text: string): { failures: string[]; checked: number } {
  const entries = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const wrapper = JSON.parse(line) as Json;
      return { message: wrapper['msg'] as Json, direction: wrapper['dir'] as WireDirection };
    });
  return checkV2Messages(entries);
}
