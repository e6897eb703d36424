// Runs kept across page reloads: saved to IndexedDB as they change, loaded at start.

import { KeyValueStore, openDatabase } from './idb';
import type { RunRecord } from './kept-runs';

/** The latest checkpoint of the run in training, kept so a reload (or a lost device) loses nothing. */
export interface KeptCheckpoint {
  runId: string;
  step: number;
  bytes: Uint8Array;
}

export interface RunArchive {
  load(): Promise<RunRecord[]>;
  save(run: RunRecord): Promise<void>;
  remove(id: string): Promise<void>;
  /** The one kept checkpoint (a newer one replaces it). */
  keepCheckpoint(ck: KeptCheckpoint): Promise<void>;
  keptCheckpoint(): Promise<KeptCheckpoint | undefined>;
}

export const DB_NAME = 'rlvr-playground';
// Version 2 added the checkpoints store (opening a version-1 database adds it).
const DB_VERSION = 2;
const RUNS = 'runs';
const CHECKPOINTS = 'checkpoints';
const LATEST = 'latest';

/** The archive in this browser's IndexedDB; null where there is none (then runs live in memory). */
export async function openRunArchive(
  factory: IDBFactory | undefined = globalThis.indexedDB,
): Promise<RunArchive | null> {
  if (!factory) return null;
  const db = await openDatabase(DB_NAME, DB_VERSION, [RUNS, CHECKPOINTS], factory);
  const store = new KeyValueStore<RunRecord>(db, RUNS);
  const checkpoints = new KeyValueStore<KeptCheckpoint>(db, CHECKPOINTS);
  return {
    load: () => store.all(),
    save: (run) => store.put(run.id, run),
    remove: (id) => store.delete(id),
    keepCheckpoint: (ck) => checkpoints.put(LATEST, ck),
    keptCheckpoint: () => checkpoints.get(LATEST),
  };
}

/** An archive in memory (tests, and browsers without IndexedDB). */
export function memoryArchive(): RunArchive {
  const runs = new Map<string, RunRecord>();
  let latest: KeptCheckpoint | undefined;
  return {
    load: async () => [...runs.values()].map((r) => structuredClone(r)),
    save: async (run) => void runs.set(run.id, structuredClone(run)),
    remove: async (id) => void runs.delete(id),
    keepCheckpoint: async (ck) => void (latest = structuredClone(ck)),
    keptCheckpoint: async () => (latest ? structuredClone(latest) : undefined),
  };
}

/**
 * Saves the runs that changed since the last call (a run is an immutable object in the store,
 * so "changed" is "a different object") and removes the ones gone. Returns the pending work.
 */
export function archiveSync(
  archive: RunArchive,
  alreadySaved: readonly RunRecord[] = [],
): (runs: readonly RunRecord[]) => Promise<void> {
  let saved = new Map(alreadySaved.map((r) => [r.id, r]));
  return async (runs) => {
    const next = new Map(runs.map((r) => [r.id, r]));
    const work: Promise<void>[] = [];
    for (const r of runs) if (saved.get(r.id) !== r && r.points.length > 0) work.push(archive.save(r));
    for (const id of saved.keys()) if (!next.has(id)) work.push(archive.remove(id));
    saved = next;
    await Promise.all(work);
  };
}
