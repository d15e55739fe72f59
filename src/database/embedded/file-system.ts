import { stat } from 'node:fs/promises';

/** Whether a failed file-system or process call failed with the errno `code`. */
export function hasCode(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === code;
}

export async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
