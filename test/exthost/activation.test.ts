import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

interface SubchatsApi {
  readonly version: string;
}

describe('activation', () => {
  it('activates subchats.subchats and returns its API with the package version', async () => {
    const extension = vscode.extensions.getExtension<SubchatsApi>('subchats.subchats');
    assert.ok(extension, 'subchats.subchats is not loaded in the extension host');
    const api = await extension.activate();
    assert.equal(extension.isActive, true);
    assert.equal(typeof api.version, 'string');
    assert.equal(api.version, (extension.packageJSON as { version: string }).version);
  });
});
