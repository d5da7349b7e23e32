import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, copyFile, link, rename, rm, writeFile } from 'node:fs/promises';

function tempBeside(file: string): string {
  return `${file}.${randomBytes(6).toString('hex')}.tmp`;
}

/** Writes `data` to `file` atomically (a temp file beside it, then rename): replaces `file`. */
export async function writeAtomic(file: string, data: Buffer | string): Promise<void> {
  const temp = tempBeside(file);
  try {
    await writeFile(temp, data, { mode: 0o600, flag: 'wx' });
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * Creates `file` holding `data` only if no file has that name: false when the name is taken.
 * Atomic and exclusive: the data is written to a temp file, then hard-linked to the name (link
 * fails when the name exists, so of two racing writers exactly one wins and nothing is ever
 * overwritten). File systems without hard links fall back to an exclusive copy.
 */
export async function claimFile(file: string, data: Buffer): Promise<boolean> {
  const temp = tempBeside(file);
  try {
    await writeFile(temp, data, { mode: 0o600, flag: 'wx' });
    try {
      await link(temp, file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
      await copyFile(temp, file, constants.COPYFILE_EXCL);
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(temp, { force: true });
  }
}

/** Whether a file of that name exists. */
export function fileExists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false, // not reported: not there is the answer
  );
}
