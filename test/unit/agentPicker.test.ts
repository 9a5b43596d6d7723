// The New Session agent picker: the default agent first, and the list follows the settings while the picker
// is open (a picker opened before the window has read the user's settings shows only the presets at first).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentConfig } from '../../src/acp/agentProcess';
import { pickAgent, shortCommandLine, type AgentPickItem, type AgentPickerUi } from '../../src/commands/agentPicker';

class FakeQuickPick {
  private rows: readonly AgentPickItem[] = [];
  activeItems: readonly AgentPickItem[] = [];
  placeholder: string | undefined;
  shown = false;
  /** As in VS Code: new items move the highlight to the first row. */
  get items(): readonly AgentPickItem[] {
    return this.rows;
  }
  set items(items: readonly AgentPickItem[]) {
    this.rows = items;
    this.activeItems = items.slice(0, 1);
  }
  disposed = false;
  private readonly accepted: (() => void)[] = [];
  private readonly hidden: (() => void)[] = [];
  onDidAccept = (listener: () => void) => (this.accepted.push(listener), { dispose: () => undefined });
  onDidHide = (listener: () => void) => (this.hidden.push(listener), { dispose: () => undefined });
  show(): void {
    this.shown = true;
  }
  dispose(): void {
    this.disposed = true;
  }
  accept(label: string): void {
    this.activeItems = this.items.filter((item) => item.label === label);
    for (const listener of this.accepted) listener();
  }
  hide(): void {
    for (const listener of this.hidden) listener();
  }
}

function harness(initial: AgentConfig[], defaultId = 'demo') {
  let agents = initial;
  const settingsListeners = new Set<() => void>();
  const pick = new FakeQuickPick();
  const ui: AgentPickerUi = {
    createQuickPick: () => pick,
    agents: () => agents,
    defaultAgentId: () => defaultId,
    installState: (agent) => (agent.command === 'npx' ? { ready: false, note: 'not installed: npx is not on PATH' } : { ready: true, note: `${agent.command} found on PATH` }),
    onDidChangeSettings: (listener) => (settingsListeners.add(listener), { dispose: () => settingsListeners.delete(listener) }),
  };
  return {
    ui,
    pick,
    listening: () => settingsListeners.size,
    changeSettings(next: AgentConfig[]) {
      agents = next;
      for (const listener of settingsListeners) listener();
    },
  };
}

const demo: AgentConfig = { id: 'demo', name: 'Demo Agent (built in)', command: 'node', args: ['cli.js'] };
const claude: AgentConfig = { id: 'claude', name: 'Claude Code', command: 'npx', args: ['claude-code-acp'] };
const mine: AgentConfig = { id: 'mine', name: 'My Agent', command: '/usr/bin/my-agent' };

test('the default agent comes first, marked; each shows its name, whether it is installed and its command line below', async () => {
  const h = harness([claude, demo]);
  const picked = pickAgent(h.ui);
  assert.ok(h.pick.shown);
  assert.deepEqual(h.pick.items.map((i) => [i.label, i.description, i.detail]), [
    ['Demo Agent (built in)', 'default · node found on PATH', 'node cli.js'],
    ['Claude Code', '$(warning) not installed: npx is not on PATH', 'npx claude-code-acp'],
  ]);
  h.pick.accept('Claude Code');
  assert.equal(await picked, claude);
  assert.ok(h.pick.disposed);
  assert.equal(h.listening(), 0, 'stops following the settings once closed');
});

test('an agent configured while the picker is open is listed and can be picked', async () => {
  const h = harness([claude, demo]);
  const picked = pickAgent(h.ui);
  assert.deepEqual(h.pick.items.map((i) => i.label), ['Demo Agent (built in)', 'Claude Code']);
  h.changeSettings([claude, demo, mine]);
  assert.deepEqual(h.pick.items.map((i) => i.label), ['Demo Agent (built in)', 'Claude Code', 'My Agent']);
  h.pick.accept('My Agent');
  assert.equal(await picked, mine);
});

test('the highlighted row stays on the same agent when the list is rebuilt', async () => {
  const h = harness([demo, claude]);
  void pickAgent(h.ui);
  h.pick.activeItems = h.pick.items.filter((i) => i.agent.id === 'claude');
  h.changeSettings([mine, demo, claude]);
  assert.deepEqual(h.pick.activeItems.map((i) => i.agent.id), ['claude']);
  h.pick.hide();
});

test('dismissed: no agent, the picker is disposed and no longer listens', async () => {
  const h = harness([demo]);
  const picked = pickAgent(h.ui);
  h.pick.hide();
  assert.equal(await picked, undefined);
  assert.ok(h.pick.disposed);
  assert.equal(h.listening(), 0);
});

test('the label is never the command line: a path loses its folders and a long line is cut in the detail', async () => {
  const long: AgentConfig = { id: 'long', name: 'Long [x](command:evil)', command: '/opt/agents/long/bin/long-agent', args: Array.from({ length: 40 }, (_, i) => `--flag-${i}`) };
  const h = harness([long], 'long');
  void pickAgent(h.ui);
  const [row] = h.pick.items;
  assert.equal(row!.label, 'Long [x] (command:evil)');
  assert.ok(row!.detail!.startsWith('long-agent --flag-0 '), row!.detail);
  assert.ok(row!.detail!.length <= 80 && row!.detail!.endsWith('…'), row!.detail);
  assert.equal(shortCommandLine({ command: '/x/node', args: ['cli.js'], builtIn: true }), 'built in');
  h.pick.hide();
});
