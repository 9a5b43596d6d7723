import assert from 'node:assert/strict';
import { mkdtempSync, promises as fs, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { resolveWorkspacePath, WorkspacePathError, type WorkspacePathProblem } from '../../src/acp/workspacePaths';

let root: string;
let workspace: string;
let outside: string;

before(async () => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'subchats-paths-')));
  workspace = path.join(root, 'ws');
  outside = path.join(root, 'outside');
  await fs.mkdir(path.join(workspace, 'src'), { recursive: true });
  await fs.mkdir(outside);
  await fs.writeFile(path.join(outside, 'secret.txt'), 'secret');
  await fs.symlink(outside, path.join(workspace, 'escape-dir'));
  await fs.symlink(path.join(outside, 'secret.txt'), path.join(workspace, 'escape-file.txt'));
  await fs.symlink(path.join(outside, 'not-yet.txt'), path.join(workspace, 'dangling.txt'));
  await fs.symlink(path.join(workspace, 'src'), path.join(workspace, 'inner-link'));
});

after(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function problemOf(requested: unknown, folders = [workspace]): Promise<WorkspacePathProblem> {
  try {
    await resolveWorkspacePath(requested, folders);
  } catch (error) {
    assert.ok(error instanceof WorkspacePathError);
    return error.problem;
  }
  assert.fail(`expected ${String(requested)} to be rejected`);
}

describe('resolveWorkspacePath', () => {
  it('accepts new and existing files inside the workspace, normalising the path', async () => {
    const resolved = await resolveWorkspacePath(path.join(workspace, 'src', 'new', 'deep', 'file.ts'), [workspace]);
    assert.equal(resolved.path, path.join(workspace, 'src', 'new', 'deep', 'file.ts'));
    assert.equal(resolved.folder, workspace);
    const normalised = await resolveWorkspacePath(`${workspace}/src/../a.txt`, [workspace]);
    assert.equal(normalised.path, path.join(workspace, 'a.txt'));
  });

  it('accepts symlinks that stay inside the workspace', async () => {
    const resolved = await resolveWorkspacePath(path.join(workspace, 'inner-link', 'x.ts'), [workspace]);
    assert.equal(resolved.realPath, path.join(workspace, 'src', 'x.ts'));
  });

  it('accepts a workspace folder that is itself reached through a symlink', async () => {
    const linkedWorkspace = path.join(root, 'ws-link');
    await fs.symlink(workspace, linkedWorkspace);
    const resolved = await resolveWorkspacePath(path.join(linkedWorkspace, 'file.txt'), [linkedWorkspace]);
    assert.equal(resolved.realPath, path.join(workspace, 'file.txt'));
  });

  it('rejects relative paths', async () => {
    assert.equal(await problemOf('src/file.ts'), 'relative');
    assert.equal(await problemOf('./file.ts'), 'relative');
  });

  it('rejects .. escapes and absolute paths outside the workspace, with distinct messages', async () => {
    assert.equal(await problemOf(`${workspace}/../outside/x.txt`), 'dot-dot-escape');
    assert.equal(await problemOf(path.join(outside, 'x.txt')), 'outside');
    assert.equal(await problemOf(`${workspace}-sibling/x.txt`), 'outside');
  });

  it('rejects symlink escapes through a directory, a file, and a dangling link', async () => {
    assert.equal(await problemOf(path.join(workspace, 'escape-dir', 'x.txt')), 'symlink-escape');
    assert.equal(await problemOf(path.join(workspace, 'escape-file.txt')), 'symlink-escape');
    assert.equal(await problemOf(path.join(workspace, 'dangling.txt')), 'symlink-escape');
  });

  it('rejects the folder itself as a file, invalid input, and writes with no workspace', async () => {
    assert.equal(await problemOf(workspace), 'workspace-root');
    assert.equal(await problemOf(42), 'invalid');
    assert.equal(await problemOf(`${workspace}/a\0b`), 'invalid');
    assert.equal(await problemOf(path.join(workspace, 'a.txt'), []), 'no-workspace');
  });

  it('allows the folder itself when asked (terminal cwd) and picks the right folder among several', async () => {
    const resolved = await resolveWorkspacePath(outside, [workspace, outside], { allowFolderItself: true });
    assert.equal(resolved.folder, outside);
  });

  it('says where a path escapes to', async () => {
    await assert.rejects(resolveWorkspacePath(path.join(workspace, 'escape-dir', 'x.txt'), [workspace]), new RegExp(`symbolic link to ${outside.replace(/[/\\]/g, '.')}.x\\.txt`));
  });

  it('refuses a write path with a trailing separator (it would create a file named like the folder)', async () => {
    assert.equal(await problemOf(`${path.join(workspace, 'src')}/`), 'trailing-separator');
    assert.equal(await problemOf(`${path.join(workspace, 'new-dir')}/`), 'trailing-separator');
    const cwd = await resolveWorkspacePath(`${path.join(workspace, 'src')}/`, [workspace], { allowFolderItself: true });
    assert.equal(cwd.path, path.join(workspace, 'src'), 'a terminal cwd may end with a slash');
  });

  it('on Windows, normalises first and then refuses network and device paths (\\/evil/share passes a raw UNC check)', async () => {
    const win = { pathApi: path.win32 };
    const windowsProblem = async (requested: string, folders = ['C:\\ws'], options = {}) => {
      try {
        await resolveWorkspacePath(requested, folders, { ...win, ...options });
      } catch (error) {
        assert.ok(error instanceof WorkspacePathError);
        return error.problem;
      }
      assert.fail(`expected ${requested} to be rejected`);
    };
    for (const hostile of ['\\/evil/share/x', '/\\evil\\share\\x', '//evil/share/x', '\\\\evil\\share\\x', '\\\\?\\C:\\ws\\x', '\\\\.\\pipe\\x']) {
      assert.equal(await windowsProblem(hostile), 'unc', hostile);
      assert.equal(await windowsProblem(hostile, ['C:\\ws'], { allowFolderItself: true }), 'unc', `${hostile} as a cwd`);
    }
    assert.equal(await windowsProblem('C:\\ws\\src\\'), 'trailing-separator');
    assert.equal(await windowsProblem('C:\\ws\\..\\x.txt'), 'dot-dot-escape');
  });
});
