import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseOptions } from '../../src/demoAgent/options';
import { demoAgentConfig } from '../../src/host/agentPresets';

const base = { cliPath: '/ext/dist/cli.js', nodePath: '/usr/bin/node', pace: 40, dialect: 'acp' };

/** The demo agent's own option parser is the judge of what the preset passes on its command line. */
function demoOptionsOf(config: ReturnType<typeof demoAgentConfig>) {
  const [cli, command, ...flags] = config.args ?? [];
  assert.equal(cli, base.cliPath);
  assert.equal(command, 'demo-agent');
  return parseOptions(flags, {});
}

test('the demo agent preset passes pace, dialect and a child duration the demo agent understands', () => {
  const config = demoAgentConfig({ ...base, dialect: 'qwen', childDuration: 8000 });
  assert.equal(config.command, base.nodePath);
  assert.deepEqual(demoOptionsOf(config), { pace: 40, childDuration: 8000, dialect: 'qwen' });
});

test('without a child duration (or with 0) the demo agent keeps its default of no minimum', () => {
  assert.deepEqual(demoOptionsOf(demoAgentConfig(base)), { pace: 40, childDuration: 0, dialect: 'acp' });
  const zero = demoAgentConfig({ ...base, childDuration: 0 });
  assert.ok(!zero.args?.includes('--child-duration'));
  assert.deepEqual(demoOptionsOf(zero), { pace: 40, childDuration: 0, dialect: 'acp' });
});
