import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir, type TempDir } from '@tandem/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { definitionFoldersSignature, walkDefinitionFolders } from './walk-definition-folders.js';

describe('walkDefinitionFolders', () => {
  let tmp: TempDir;
  let project: string;
  let user: string;
  beforeEach(async () => {
    tmp = await makeTempDir('tandem-walk-');
    project = join(tmp.path, 'project');
    user = join(tmp.path, 'user');
    await mkdir(project);
    await mkdir(user);
  });
  afterEach(() => tmp.cleanup());

  const found = (roots: Array<{ dir: string; folders?: string[] }>, layout: Parameters<typeof walkDefinitionFolders>[1]) =>
    [...walkDefinitionFolders(roots, layout)].map(({ root, name, path }) => [root.dir, name, path]);

  it('files: the NAME.md files (links too) of each root in the order given, by file name within a root, nothing else', async () => {
    await writeFile(join(project, 'b.md'), '');
    await writeFile(join(project, 'a-b.md'), '');
    await writeFile(join(project, 'a.md'), '');
    await writeFile(join(project, 'notes.txt'), '');
    await mkdir(join(project, 'sub'));
    await writeFile(join(project, 'sub', 'inner.md'), '');
    await writeFile(join(user, 'a.md'), '');
    await symlink(join(project, 'b.md'), join(user, 'linked.md'));
    expect(found([{ dir: project }, { dir: user }], 'files')).toEqual([
      [project, 'a-b', join(project, 'a-b.md')],
      [project, 'a', join(project, 'a.md')],
      [project, 'b', join(project, 'b.md')],
      [user, 'a', join(user, 'a.md')],
      [user, 'linked', join(user, 'linked.md')],
    ]);
  });

  it('files-and-subfolders: SUB/NAME.md is SUB:NAME, one level down only, in the locale order', async () => {
    await writeFile(join(project, 'B.md'), '');
    await writeFile(join(project, 'a.md'), '');
    await mkdir(join(project, 'git', 'deeper'), { recursive: true });
    await writeFile(join(project, 'git', 'commit.md'), '');
    await writeFile(join(project, 'git', 'deeper', 'no.md'), '');
    expect(found([{ dir: project }], 'files-and-subfolders')).toEqual([
      [project, 'a', join(project, 'a.md')],
      [project, 'B', join(project, 'B.md')],
      [project, 'git:commit', join(project, 'git', 'commit.md')],
    ]);
  });

  it('folders: every folder and link to a folder, sorted; a root that names its folders gives those', async () => {
    await mkdir(join(project, 'zeta'));
    await mkdir(join(project, 'alpha'));
    await writeFile(join(project, 'file.md'), '');
    await symlink(join(project, 'zeta'), join(project, 'linked'));
    await symlink(join(project, 'nowhere'), join(project, 'dangling'));
    const named = [join(user, 'one'), join(user, 'two')];
    expect(found([{ dir: project }, { dir: user, folders: named }], 'folders')).toEqual([
      [project, 'alpha', join(project, 'alpha')],
      [project, 'linked', join(project, 'linked')],
      [project, 'zeta', join(project, 'zeta')],
      [user, 'one', named[0]],
      [user, 'two', named[1]],
    ]);
  });

  it('a root whose folder does not exist has nothing', () => {
    expect(found([{ dir: join(tmp.path, 'missing') }], 'files')).toEqual([]);
    expect(found([{ dir: join(tmp.path, 'missing') }], 'files-and-subfolders')).toEqual([]);
    expect(found([{ dir: join(tmp.path, 'missing') }], 'folders')).toEqual([]);
  });
});

describe('definitionFoldersSignature', () => {
  let tmp: TempDir;
  beforeEach(async () => {
    tmp = await makeTempDir('tandem-walk-sig-');
  });
  afterEach(() => tmp.cleanup());

  it('changes when a definition is added or edited, or a root appears; stays while nothing moves', async () => {
    const root = join(tmp.path, 'agents');
    const roots = [{ dir: root }];
    const missing = definitionFoldersSignature(roots, 'files');
    await mkdir(root);
    const empty = definitionFoldersSignature(roots, 'files');
    expect(empty).not.toBe(missing);
    await writeFile(join(root, 'a.md'), 'one');
    const one = definitionFoldersSignature(roots, 'files');
    expect(one).not.toBe(empty);
    expect(definitionFoldersSignature(roots, 'files')).toBe(one);
    await writeFile(join(root, 'a.md'), 'one, longer');
    expect(definitionFoldersSignature(roots, 'files')).not.toBe(one);
  });

  it('folders: a change to the file inside a definition folder changes it', async () => {
    const root = join(tmp.path, 'skills');
    await mkdir(join(root, 'greet'), { recursive: true });
    await writeFile(join(root, 'greet', 'SKILL.md'), 'a');
    const before = definitionFoldersSignature([{ dir: root }], 'folders', 'SKILL.md');
    await writeFile(join(root, 'greet', 'SKILL.md'), 'a longer text');
    expect(definitionFoldersSignature([{ dir: root }], 'folders', 'SKILL.md')).not.toBe(before);
  });
});
