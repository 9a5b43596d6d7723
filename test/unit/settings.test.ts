// The contributed settings as the Settings editor shows them (sections, order, Markdown descriptions, enum
// descriptions, links between settings) and the `subchats.agents` entry schema: what it accepts is what the
// product writes and reads, checked with ajv on the presets, Add Agent's entries and every documented example.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Ajv from 'ajv';
import { AGENT_PRESETS, readAgentSettings } from '../../src/host/agentPresets';
import { installPlan } from '../../src/host/registry/registryEntry';
import { readRegistry } from '../../src/host/registry/registryFormat';
import { contributedSettings, settingsSections, type ContributedSetting } from './support/contributedSettings';

const ROOT = join(__dirname, '..', '..');
const sections = settingsSections();
const settings = contributedSettings();

test('settings come in titled sections in a set order, each setting with its own place in its section', () => {
  assert.ok(sections.length > 1, 'the settings are grouped');
  const sectionOrders = sections.map((section) => section.order);
  for (const section of sections) {
    assert.ok(section.title?.trim(), 'every section has a title');
    assert.equal(typeof section.order, 'number', `section "${section.title}" has an order`);
    const orders = Object.values(section.properties).map((setting) => setting.order);
    for (const [key, setting] of Object.entries(section.properties)) assert.equal(typeof setting.order, 'number', `${key} has an order`);
    assert.equal(new Set(orders).size, orders.length, `orders in "${section.title}" are distinct`);
  }
  assert.equal(new Set(sectionOrders).size, sectionOrders.length, 'section orders are distinct');
  assert.equal(sections[0]!.title, 'Agents', 'what to run comes first');
});

test('every setting has a Markdown description, and every enum value a description', () => {
  for (const [key, setting] of settings) {
    assert.ok(setting.markdownDescription?.trim(), `${key} has a markdownDescription`);
    assert.equal(setting.description, undefined, `${key}: one description (the Markdown one)`);
    if (!setting.enum) continue;
    const described = setting.markdownEnumDescriptions ?? setting.enumDescriptions;
    assert.equal(described?.length, setting.enum.length, `${key} describes each of its values`);
  }
});

test('links between settings (#subchats.x#) name settings that exist', () => {
  let links = 0;
  for (const [key, setting] of settings) {
    const texts = [setting.markdownDescription ?? '', ...Object.values((setting.items?.['properties'] ?? {}) as Record<string, ContributedSetting>).map((p) => p.markdownDescription ?? '')];
    for (const text of texts) {
      for (const [, linked] of text.matchAll(/#(subchats\.[\w.]+)#/g)) {
        links++;
        assert.ok(settings.has(linked!), `${key} links to ${linked}, which is not a setting`);
      }
    }
  }
  assert.ok(links > 0);
});

// VS Code's own schema keywords, which ajv (strict) would otherwise take for typos.
const ajv = new Ajv({ allErrors: true });
ajv.addVocabulary(['markdownDescription', 'defaultSnippets', 'order', 'scope', 'markdownEnumDescriptions', 'enumDescriptions']);
const agentsSetting = settings.get('subchats.agents')!;
const validAgents = ajv.compile(agentsSetting);
const validEntry = ajv.compile(agentsSetting.items!);

function problemsOf(value: unknown): string {
  return validAgents(value) ? '' : ajv.errorsText(validAgents.errors);
}

test('the subchats.agents schema accepts every preset written out as an entry that replaces it', () => {
  for (const preset of AGENT_PRESETS) {
    const entry = { id: preset.id, name: preset.name, command: preset.command, args: [...(preset.args ?? [])] };
    assert.equal(problemsOf([entry]), '', preset.id);
  }
});

test('the subchats.agents schema accepts the entries Add Agent writes (npx, uvx, a downloaded binary)', () => {
  const registry = readRegistry({
    agents: [
      { id: 'npx-agent', name: 'Npx Agent', version: '1.2.3', distribution: { npx: { package: '@example/agent', args: ['--acp'], env: { TOKEN_FILE: '~/.token' } } } },
      { id: 'uvx-agent', name: 'Uvx Agent', version: '0.3.0', distribution: { uvx: { package: 'uvx-agent', args: [] } } },
      { id: 'bin-agent', name: 'Bin Agent', version: '2.0.0', distribution: { binary: { 'linux-x86_64': { archive: 'https://example.com/a.tar.gz', cmd: './bin-agent', args: ['acp'] } } } },
    ],
  });
  const entries = registry.agents.map((agent) => {
    const plan = installPlan(agent, 'linux-x86_64');
    if (plan.kind === 'ready') return plan.entry;
    if (plan.kind === 'download') return plan.entryFor('/storage/agents/bin-agent/2.0.0/bin-agent');
    throw new Error(`${agent.id}: ${plan.reason}`);
  });
  assert.equal(entries.length, 3);
  assert.equal(problemsOf(entries), '');
});

/** The `subchats.agents` values of the JSON code blocks in the user docs (README, docs/, the walkthrough). */
function documentedAgentLists(): { where: string; value: unknown }[] {
  const files = ['README.md', ...markdownFiles('docs'), ...markdownFiles('media/walkthrough')];
  const found: { where: string; value: unknown }[] = [];
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const [, body] of text.matchAll(/^```jsonc?\n([\s\S]*?)^```/gm)) {
      if (!body!.includes('"subchats.agents"')) continue;
      // A block may hold a whole settings file or only the `"subchats.agents": [...]` member.
      const parsed = parseJson(body!) ?? parseJson(`{${body!}}`);
      assert.ok(parsed && typeof parsed === 'object', `${file}: a subchats.agents example that is not JSON:\n${body}`);
      found.push({ where: file, value: (parsed as Record<string, unknown>)['subchats.agents'] });
    }
  }
  return found;
}

function markdownFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(join(ROOT, dir), { recursive: true }) as string[];
  } catch {
    return [];
  }
  return names.filter((name) => name.endsWith('.md')).map((name) => join(dir, name));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

test('every subchats.agents example in the docs is valid against the schema, and the product reads it without a problem', () => {
  const examples = documentedAgentLists();
  assert.ok(examples.length > 0, 'the docs show how to add an agent');
  for (const { where, value } of examples) {
    assert.equal(problemsOf(value), '', where);
    assert.deepEqual(readAgentSettings(value).problems, [], where);
  }
});

test('the schema rejects an entry without a command, with arguments that are not strings, or with a field nothing reads', () => {
  const good = { id: 'mine', command: 'my-agent', args: ['--acp'] };
  assert.equal(validEntry(good), true);
  const bad: Record<string, unknown>[] = [
    { id: 'mine', args: ['--acp'] },
    { id: 'mine', command: '' },
    { command: 'my-agent' },
    { id: 'mine', command: 'my-agent', args: ['--port', 8080] },
    { id: 'mine', command: 'my-agent', args: '--acp' },
    { id: 'mine', command: 'my-agent', env: { DEBUG: true } },
    { id: 'mine', command: 'my-agent', cwd: '/somewhere' },
  ];
  for (const entry of bad) assert.equal(validEntry(entry), false, JSON.stringify(entry));
  assert.equal(validAgents({ id: 'mine', command: 'my-agent' }), false, 'the setting is a list');
});

test('the schema allows exactly the fields the product reads or Add Agent writes', () => {
  const properties = Object.keys((agentsSetting.items!['properties'] ?? {}) as object).sort();
  const full = { id: 'reg', name: 'Reg', command: 'npx', args: ['-y', 'reg@1'], env: { A: '1' }, registryId: 'reg', registryVersion: '1' };
  assert.deepEqual(properties, Object.keys(full).sort());
  assert.equal(validEntry(full), true);
  // Each field but the informational registryVersion changes what the product runs or shows.
  const read = (entry: Record<string, unknown>) => JSON.stringify(readAgentSettings([entry]).agents);
  for (const key of properties.filter((k) => k !== 'registryVersion' && k !== 'id' && k !== 'command')) {
    const without: Record<string, unknown> = { ...full };
    delete without[key];
    assert.notEqual(read(without), read(full), `${key} is read`);
  }
});
