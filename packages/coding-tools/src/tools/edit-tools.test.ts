import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editFileTool } from './edit-file.js';
import { createFileBaselines } from './file-baselines.js';
import { deleteLinesTool, insertLineTool } from './line-tools.js';
import { readFileTool } from './read-file.js';
import { makeHarness, type Harness } from './tool-harness.test-helper.js';

let h: Harness;
beforeEach(async () => {
  h = await makeHarness();
});
afterEach(async () => {
  await h.cleanup();
});

async function writeAndRead(rel: string, content: string): Promise<void> {
  await h.write(rel, content);
  await h.run(readFileTool, { path: rel });
}

describe('edit_file', () => {
  it('replaces a unique string and returns a unified diff preview', async () => {
    await writeAndRead('app.ts', 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
    const result = await h.run(editFileTool, { path: 'app.ts', old_string: 'const b = 2;', new_string: 'const b = 20;' });
    expect(result.isError).toBe(false);
    expect(result.output).toMatch(/^Edited app\.ts at line 2/);
    expect(result.output).toContain('--- app.ts');
    expect(result.output).toContain('+++ app.ts');
    expect(result.output).toContain('-const b = 2;');
    expect(result.output).toContain('+const b = 20;');
    expect(result.output).toContain('@@ -1,3 +1,3 @@');
    expect(await h.read('app.ts')).toBe('const a = 1;\nconst b = 20;\nconst c = 3;\n');
  });

  it('says how many times a non-unique old_string occurs, and when it does not occur', async () => {
    await writeAndRead('x.txt', 'foo\nbar\nfoo\nfoo\n');
    const many = await h.run(editFileTool, { path: 'x.txt', old_string: 'foo', new_string: 'baz' });
    expect(many.isError).toBe(true);
    expect(many.output).toBe('old_string appears 3 times in x.txt; include more surrounding context to make it unique');
    const none = await h.run(editFileTool, { path: 'x.txt', old_string: 'qux', new_string: 'baz' });
    expect(none.output).toMatch(/^old_string does not occur in x\.txt/);
    expect(await h.read('x.txt')).toBe('foo\nbar\nfoo\nfoo\n');
  });

  it('replaces a line range, keeping CRLF line endings', async () => {
    await writeAndRead('w.txt', 'one\r\ntwo\r\nthree\r\nfour\r\n');
    const result = await h.run(editFileTool, { path: 'w.txt', start_line: 2, end_line: 3, new_string: 'TWO\nTHREE\nMORE' });
    expect(result.output).toMatch(/Replaced lines 2-3 of w\.txt with 3 line\(s\)/);
    expect(await h.read('w.txt')).toBe('one\r\nTWO\r\nTHREE\r\nMORE\r\nfour\r\n');
  });

  it('matches LF text against a CRLF file and keeps CRLF', async () => {
    await writeAndRead('crlf.txt', 'a\r\nb\r\nc\r\n');
    const result = await h.run(editFileTool, { path: 'crlf.txt', old_string: 'a\nb', new_string: 'A\nB\nB2' });
    expect(result.isError).toBe(false);
    expect(await h.read('crlf.txt')).toBe('A\r\nB\r\nB2\r\nc\r\n');
  });

  it('rejects ambiguous or out-of-range requests', async () => {
    await writeAndRead('y.txt', 'a\nb\n');
    expect((await h.run(editFileTool, { path: 'y.txt', new_string: 'x' })).output).toMatch(/either old_string .* or start_line/);
    expect((await h.run(editFileTool, { path: 'y.txt', old_string: 'a', start_line: 1, new_string: 'x' })).isError).toBe(true);
    expect((await h.run(editFileTool, { path: 'y.txt', start_line: 2, end_line: 5, new_string: 'x' })).output).toMatch(/past the end .* 2 lines/);
  });

  it('requires a read first, and allows consecutive edits after one read', async () => {
    await h.write('z.txt', 'a\nb\nc\n');
    const blind = await h.run(editFileTool, { path: 'z.txt', old_string: 'a', new_string: 'A' });
    expect(blind.output).toMatch(/you have not read .*z\.txt in this session; read it first/);
    await h.run(readFileTool, { path: 'z.txt' });
    expect((await h.run(editFileTool, { path: 'z.txt', old_string: 'a', new_string: 'A' })).isError).toBe(false);
    expect((await h.run(editFileTool, { path: 'z.txt', old_string: 'b', new_string: 'B' })).isError).toBe(false);
    expect(await h.read('z.txt')).toBe('A\nB\nc\n');
  });

  it('gives the second of two sessions editing one file the stale error', async () => {
    await h.write('shared.txt', 'value = 1\n');
    const sessionA = { baselines: createFileBaselines(), sessionId: 'A' };
    const sessionB = { baselines: createFileBaselines(), sessionId: 'B' };
    await h.run(readFileTool, { path: 'shared.txt' }, sessionA);
    await h.run(readFileTool, { path: 'shared.txt' }, sessionB);
    const first = await h.run(editFileTool, { path: 'shared.txt', old_string: 'value = 1', new_string: 'value = 2' }, sessionA);
    expect(first.isError).toBe(false);
    const second = await h.run(editFileTool, { path: 'shared.txt', old_string: 'value = 1', new_string: 'value = 3' }, sessionB);
    expect(second.isError).toBe(true);
    expect(second.output).toBe(`${path.join(h.workspace, 'shared.txt')} changed since you read it (stale); read it again before editing`);
    expect(await h.read('shared.txt')).toBe('value = 2\n');
    // After re-reading, session B may edit.
    await h.run(readFileTool, { path: 'shared.txt' }, sessionB);
    expect((await h.run(editFileTool, { path: 'shared.txt', old_string: 'value = 2', new_string: 'value = 3' }, sessionB)).isError).toBe(false);
  });

  it('refuses binary files and missing files', async () => {
    await writeAndRead('t.txt', 'x');
    await fs.writeFile(path.join(h.workspace, 't.txt'), Buffer.from([0, 1, 2]));
    h.baselines.recordRead(path.join(h.workspace, 't.txt'), Buffer.from([0, 1, 2]));
    expect((await h.run(editFileTool, { path: 't.txt', old_string: 'x', new_string: 'y' })).output).toMatch(/binary/);
    expect((await h.run(editFileTool, { path: 'missing.txt', old_string: 'x', new_string: 'y' })).output).toMatch(/does not exist; create it with write_file/);
  });
});

describe('insert_line and delete_lines', () => {
  it('inserts before a line, appends at n+1, and reports the change', async () => {
    await writeAndRead('l.txt', 'a\nb\nc\n');
    const result = await h.run(insertLineTool, { path: 'l.txt', line: 2, content: 'x\ny' });
    expect(result.output).toMatch(/^Inserted 2 line\(s\) at line 2 of l\.txt/);
    expect(result.output).toContain('+x');
    expect(await h.read('l.txt')).toBe('a\nx\ny\nb\nc\n');
    await h.run(insertLineTool, { path: 'l.txt', line: 6, content: 'end' });
    expect(await h.read('l.txt')).toBe('a\nx\ny\nb\nc\nend\n');
    const past = await h.run(insertLineTool, { path: 'l.txt', line: 9, content: 'no' });
    expect(past.output).toMatch(/use 7 to append/);
  });

  it('inserts into an empty file', async () => {
    await writeAndRead('empty.txt', '');
    await h.run(insertLineTool, { path: 'empty.txt', line: 1, content: 'first' });
    expect(await h.read('empty.txt')).toBe('first\n');
  });

  it('deletes a line range and reports it', async () => {
    await writeAndRead('d.txt', '1\n2\n3\n4\n5\n');
    const result = await h.run(deleteLinesTool, { path: 'd.txt', start_line: 2, end_line: 4 });
    expect(result.output).toMatch(/^Deleted 3 line\(s\) \(2-4\) from d\.txt/);
    expect(result.output).toContain('-3');
    expect(await h.read('d.txt')).toBe('1\n5\n');
    expect((await h.run(deleteLinesTool, { path: 'd.txt', start_line: 2, end_line: 3 })).output).toMatch(/past the end/);
    expect((await h.run(deleteLinesTool, { path: 'd.txt', start_line: 2, end_line: 1 })).output).toMatch(/before start_line/);
  });

  it('both require a fresh read', async () => {
    await h.write('f.txt', 'a\n');
    expect((await h.run(insertLineTool, { path: 'f.txt', line: 1, content: 'x' })).output).toMatch(/read it first/);
    expect((await h.run(deleteLinesTool, { path: 'f.txt', start_line: 1, end_line: 1 })).output).toMatch(/read it first/);
  });
});
