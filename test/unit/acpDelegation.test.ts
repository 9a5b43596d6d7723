import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { delegationSupport, parseSubagentCatalog, validateDelegation, type DelegationSupport } from '../../src/acp/delegation';

const full: DelegationSupport = { promptDelegation: true, background: true };
const foregroundOnly: DelegationSupport = { promptDelegation: true, background: false };
const none: DelegationSupport = { promptDelegation: false, background: false };
const catalog = [
  { id: 'explorer', title: 'Explorer' },
  { id: 'tester', title: 'Tester' },
];

describe('delegationSupport', () => {
  it('reads object and boolean markers and treats null/absent as unsupported', () => {
    assert.deepEqual(delegationSupport({ sessionCapabilities: { subagents: { promptDelegation: {}, background: {} } } }), full);
    assert.deepEqual(delegationSupport({ sessionCapabilities: { subagents: { promptDelegation: {}, background: null } } }), foregroundOnly);
    // Only an object grants: `true` (older draft) and arrays do not.
    assert.deepEqual(delegationSupport({ sessionCapabilities: { subagents: { promptDelegation: true, background: [] } } }), none);
    assert.deepEqual(delegationSupport({ sessionCapabilities: { subagents: { promptDelegation: [], background: true } } }), none);
    assert.deepEqual(delegationSupport({ sessionCapabilities: { subagents: {} } }), none);
    assert.deepEqual(delegationSupport({}), none);
    assert.deepEqual(delegationSupport(undefined), none);
  });
});

describe('validateDelegation', () => {
  it('accepts every policy alone when promptDelegation is advertised', () => {
    for (const policy of ['auto', 'disable', 'prefer', 'require']) assert.deepEqual(validateDelegation({ policy }, foregroundOnly), []);
  });

  it('accepts subagentId and runMode with prefer/require', () => {
    assert.deepEqual(validateDelegation({ policy: 'prefer', subagentId: 'tester', runMode: 'foreground' }, foregroundOnly, catalog), []);
    assert.deepEqual(validateDelegation({ policy: 'require', subagentId: 'explorer', runMode: 'background' }, full, catalog), []);
  });

  it('refuses any delegation when promptDelegation is not advertised', () => {
    assert.match(validateDelegation({ policy: 'auto' }, none).join(), /promptDelegation/);
  });

  it('refuses subagentId and runMode with auto/disable', () => {
    assert.match(validateDelegation({ policy: 'auto', subagentId: 'tester' }, full).join(), /subagentId is only allowed with policy prefer or require/);
    assert.match(validateDelegation({ policy: 'disable', runMode: 'foreground' }, full).join(), /runMode is only allowed with policy prefer or require/);
  });

  it('refuses background unless advertised', () => {
    assert.match(validateDelegation({ policy: 'require', runMode: 'background' }, foregroundOnly).join(), /background/);
    assert.deepEqual(validateDelegation({ policy: 'require', runMode: 'background' }, full), []);
  });

  it('refuses unknown policies, run modes, subagents and fields', () => {
    assert.match(validateDelegation({ policy: 'always' }, full).join(), /policy must be one of/);
    assert.match(validateDelegation({ policy: 'prefer', runMode: 'later' }, full).join(), /runMode must be foreground or background/);
    assert.match(validateDelegation({ policy: 'prefer', subagentId: 'ghost' }, full, catalog).join(), /unknown subagent "ghost" \(available: explorer, tester\)/);
    assert.match(validateDelegation({ policy: 'prefer', subagentId: '' }, full).join(), /non-empty string/);
    assert.match(validateDelegation({ policy: 'prefer', priority: 1 }, full).join(), /unknown delegation field\(s\): priority/);
    assert.deepEqual(validateDelegation('require', full), ['delegation must be an object']);
  });

  it('does not check subagentId against an unknown catalog', () => {
    assert.deepEqual(validateDelegation({ policy: 'prefer', subagentId: 'anything' }, full), []);
  });
});

describe('parseSubagentCatalog', () => {
  it('keeps agent order, drops entries without an id and falls back to the id as title', () => {
    assert.deepEqual(parseSubagentCatalog([{ id: 'b', title: 'B' }, { title: 'no id' }, { id: 'a' }, 'junk']), [
      { id: 'b', title: 'B', description: null },
      { id: 'a', title: 'a', description: null },
    ]);
    assert.equal(parseSubagentCatalog(null), undefined);
  });
});
