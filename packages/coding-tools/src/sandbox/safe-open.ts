import { closeSync, constants, fstatSync, openSync, readFileSync, readlinkSync } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import { ToolError, SandboxError } from '@tandem/core';

/**
 * Check-then-use: the sandbox checks a path, then a tool opens it. If something swaps a
 * component for a symlink in between, the open could land outside the sandbox. This module is
 * how tools open files so that gap is closed:
 *
 * - The final component is opened with O_NOFOLLOW: if it became a symlink, the open fails
 *   (ELOOP) and nothing is read or written.
 * - Any swapped parent directory is caught after the open: the path of the opened descriptor
 *   (/proc/self/fd/N on Linux) must equal the checked canonical path; otherwise the handle is
 *   closed before a byte is read or written. Where /proc is missing (macOS), the descriptor's
 *   device and inode are compared with a fresh stat of the checked path, a much narrower window.
 * - Writers open without O_TRUNC and truncate only after verification, so a refused open never
 *   clobbers the file it reached.
 *
 * Not covered: when a parent is swapped and the file did not exist, O_CREAT has already made an
 * empty file at the other location before verification refuses it (nothing is written into it);
 * directory operations (mkdir of missing parents, listing, recursive delete) act on paths and
 * rely on the resolve-time check alone; a hard link to an outside file is indistinguishable from
 * an ordinary file and is followed.
 */
export type OpenMode = 'read' | 'write';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
// A FIFO or device swapped in must not block the open; only regular files are used anyway.
const NONBLOCK = constants.O_NONBLOCK ?? 0;

export async function openVerified(canonicalPath: string, mode: OpenMode, fileMode = 0o644): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await fs.open(canonicalPath, openFlags(mode), fileMode);
  } catch (error) {
    throw openError(error, canonicalPath);
  }
  try {
    await verifyDescriptor(handle, canonicalPath);
    checkRegularFile(fstatSync(handle.fd).isFile(), canonicalPath);
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
  return handle;
}

const openFlags = (mode: OpenMode) => (mode === 'read' ? constants.O_RDONLY : constants.O_WRONLY | constants.O_CREAT) | NOFOLLOW | NONBLOCK;

function openError(error: unknown, canonicalPath: string): unknown {
  if ((error as NodeJS.ErrnoException).code === 'ELOOP') {
    return new SandboxError('symlink_swapped', canonicalPath, `${canonicalPath} became a symbolic link after it was checked; refusing to follow it`);
  }
  return error;
}

function checkRegularFile(isFile: boolean, canonicalPath: string): void {
  if (!isFile) {
    throw new ToolError(`${canonicalPath} is not a regular file (a directory, device, socket or pipe); file tools read and write regular files only`);
  }
}

async function verifyDescriptor(handle: FileHandle, canonicalPath: string): Promise<void> {
  let actual: string | undefined;
  try {
    // procfs answers from memory, never from a disk: no reason to pay a thread-pool round trip.
    actual = readlinkSync(`/proc/self/fd/${handle.fd}`);
  } catch {
    actual = undefined;
  }
  if (actual !== undefined) {
    if (actual !== canonicalPath) throw swapped(canonicalPath, actual);
    return;
  }
  const [opened, named] = await Promise.all([handle.stat(), fs.stat(canonicalPath).catch(() => undefined)]);
  if (!named || opened.dev !== named.dev || opened.ino !== named.ino) throw swapped(canonicalPath, 'another file');
}

function swapped(expected: string, actual: string): SandboxError {
  return new SandboxError(
    'symlink_swapped',
    expected,
    `${expected} changed while it was being opened (it now leads to ${actual}); nothing was read or written — try again`,
  );
}

/**
 * Files up to this size are read synchronously, through the same checks: a local read of a few
 * KB takes microseconds, while its four thread-pool round trips (open, fstat, read, close) cost
 * ~0.2 ms of CPU per call. Larger files are read asynchronously, so the server keeps answering.
 */
export const SYNC_READ_MAX_BYTES = 64 * 1024;

/** Reads a whole file through a verified descriptor. */
export async function readVerified(canonicalPath: string): Promise<Buffer> {
  const small = readSmallVerified(canonicalPath);
  if (small) return small;
  const handle = await openVerified(canonicalPath, 'read');
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * The whole file if it is at most SYNC_READ_MAX_BYTES, read synchronously through a verified
 * descriptor; undefined (nothing read) when it is larger or /proc cannot verify the descriptor
 * (the asynchronous path then opens it again and checks it its own way).
 */
function readSmallVerified(canonicalPath: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(canonicalPath, openFlags('read'));
  } catch (error) {
    throw openError(error, canonicalPath);
  }
  try {
    let actual: string;
    try {
      actual = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      return undefined;
    }
    if (actual !== canonicalPath) throw swapped(canonicalPath, actual);
    const info = fstatSync(fd);
    checkRegularFile(info.isFile(), canonicalPath);
    if (info.size > SYNC_READ_MAX_BYTES) return undefined;
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Replaces a file's content through a verified descriptor (created with `fileMode` if missing). */
export async function writeVerified(canonicalPath: string, content: string | Buffer, fileMode = 0o644): Promise<void> {
  const handle = await openVerified(canonicalPath, 'write', fileMode);
  try {
    await handle.truncate(0);
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
}
