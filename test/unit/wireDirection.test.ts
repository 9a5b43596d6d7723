// Which side sent a bare transcript line (no direction recorded): read from the method, whose sender ACP fixes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AgentMethod, ClientMethod } from '../../src/protocol/acpMethods';
import { directionOfMethod } from '../../src/store/wireMessage';

test('every method the agent implements is sent by the client, terminal/cancel (v2) included', () => {
  for (const method of Object.values(AgentMethod)) assert.equal(directionOfMethod(method), 'client->agent', method);
});

test('every method the client implements is sent by the agent', () => {
  for (const method of Object.values(ClientMethod)) assert.equal(directionOfMethod(method), 'agent->client', method);
});

test('an unknown method under an agent-side prefix is the agent\'s; any other unknown method the client\'s', () => {
  assert.equal(directionOfMethod('terminal/resize'), 'agent->client');
  assert.equal(directionOfMethod('_vendor/ping'), 'client->agent');
});
