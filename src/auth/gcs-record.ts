import type { Bucket } from '@google-cloud/storage';
import { gcsStatus } from './gcs-status.js';

/** Custom-metadata key holding a record's JSON, so one metadata GET returns value and generation. */
const RECORD_KEY = 'wakit-record';

export interface GcsRecord<T> {
  value: T;
  generation: number;
}

/**
 * Reads a small JSON record object (pointer, lease) with its generation, or null when missing.
 * The value is read from the object's custom metadata (the body holds the same JSON for humans).
 */
export async function readRecord<T>(bucket: Bucket, name: string): Promise<GcsRecord<T> | null> {
  try {
    const [metadata] = await bucket.file(name).getMetadata();
    const raw = metadata.metadata?.[RECORD_KEY];
    if (typeof raw !== 'string') return null;
    return { value: JSON.parse(raw) as T, generation: Number(metadata.generation) };
  } catch (error) {
    if (gcsStatus(error) === 404) return null;
    throw error;
  }
}

/**
 * Writes a record only if the object is still at `ifGenerationMatch` (0: only if it does not exist).
 * Returns the new generation; a lost race rejects with status 412.
 */
export async function writeRecord(
  bucket: Bucket,
  name: string,
  value: unknown,
  ifGenerationMatch: number,
): Promise<number> {
  const json = JSON.stringify(value);
  const file = bucket.file(name);
  await file.save(json, {
    resumable: false,
    contentType: 'application/json',
    metadata: { cacheControl: 'no-store', metadata: { [RECORD_KEY]: json } },
    preconditionOpts: { ifGenerationMatch },
  });
  return Number(file.metadata.generation);
}

/** Deletes an object; a missing object is not an error. */
export async function deleteObject(
  bucket: Bucket,
  name: string,
  ifGenerationMatch?: number,
): Promise<void> {
  try {
    await bucket.file(name).delete(ifGenerationMatch === undefined ? {} : { ifGenerationMatch });
  } catch (error) {
    if (gcsStatus(error) !== 404) throw error;
  }
}
