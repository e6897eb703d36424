// The IndexedDB wrapper against a small in-memory fake of the IDB API (Node has no IndexedDB;
// the real one is exercised by the e2e "runs survive a reload" test).

import { describe, expect, it } from 'vitest';
import { presetConfig } from '../lessons';
import { archiveSync, memoryArchive, openRunArchive } from './archive';
import { KeyValueStore, openDatabase } from './idb';
import { makeRun } from './kept-runs';

type Handler = (() => void) | null;

class FakeRequest<T> {
  result!: T;
  error: Error | null = null;
  onsuccess: Handler = null;
  onerror: Handler = null;
  onupgradeneeded: Handler = null;
  onblocked: Handler = null;
  /** Settles on a later task, like IndexedDB. */
  settle(fn: () => T): this {
    setTimeout(() => {
      try {
        this.result = fn();
        this.onsuccess?.();
      } catch (e) {
        this.error = e as Error;
        this.onerror?.();
      }
    }, 0);
    return this;
  }
}

class FakeDb {
  readonly stores = new Map<string, Map<string, unknown>>();
  objectStoreNames = { contains: (n: string) => this.stores.has(n) };
  createObjectStore(name: string) {
    this.stores.set(name, new Map());
  }
  transaction(name: string) {
    const data = this.stores.get(name);
    if (!data) throw new Error(`NotFoundError: no store ${name}`);
    return {
      objectStore: () => ({
        get: (k: string) => new FakeRequest().settle(() => structuredClone(data.get(k))),
        put: (v: unknown, k: string) => new FakeRequest().settle(() => void data.set(k, structuredClone(v))),
        delete: (k: string) => new FakeRequest().settle(() => void data.delete(k)),
        getAll: () => new FakeRequest().settle(() => [...data.values()].map((v) => structuredClone(v))),
        clear: () => new FakeRequest().settle(() => data.clear()),
      }),
    };
  }
}

function fakeFactory(): IDBFactory & { dbs: Map<string, FakeDb>; upgrades: number } {
  const dbs = new Map<string, FakeDb>();
  const f = {
    dbs,
    upgrades: 0,
    open(name: string) {
      const req = new FakeRequest<FakeDb>();
      setTimeout(() => {
        let db = dbs.get(name);
        req.result = db ?? new FakeDb();
        if (!db) {
          db = req.result;
          dbs.set(name, db);
          f.upgrades++;
          req.onupgradeneeded?.();
        }
        req.onsuccess?.();
      }, 0);
      return req;
    },
  };
  return f as unknown as IDBFactory & { dbs: Map<string, FakeDb>; upgrades: number };
}

describe('IndexedDB wrapper', () => {
  it('creates the stores once, then puts, gets, lists and deletes values as promises', async () => {
    const factory = fakeFactory();
    const db = await openDatabase('t', 1, ['a', 'b'], factory);
    await openDatabase('t', 1, ['a', 'b'], factory);
    expect(factory.upgrades).toBe(1);
    const store = new KeyValueStore<{ n: number }>(db, 'a');
    await store.put('x', { n: 1 });
    await store.put('y', { n: 2 });
    expect(await store.get('x')).toEqual({ n: 1 });
    expect(await store.get('nope')).toBeUndefined();
    expect(await store.all()).toEqual([{ n: 1 }, { n: 2 }]);
    await store.delete('x');
    expect(await store.all()).toEqual([{ n: 2 }]);
    await store.clear();
    expect(await store.all()).toEqual([]);
  });

  it('a failing request rejects with its error', async () => {
    const db = await openDatabase('t', 1, ['a'], fakeFactory());
    const store = new KeyValueStore<unknown>(db, 'a');
    await expect(store.put('f', { fn: () => 1 })).rejects.toThrow();
  });

  it('the run archive saves changed runs, removes deleted ones, and loads them back', async () => {
    const factory = fakeFactory();
    const archive = (await openRunArchive(factory))!;
    const sync = archiveSync(archive);
    const a = {
      ...makeRun([], presetConfig('sort-easy'), 'sort-easy', { id: 'a', now: 1 }),
      points: [{ step: 1, level: 3, scalars: { reward: 1 } }],
    };
    const empty = makeRun([a], presetConfig('sort-easy'), 'sort-easy', { id: 'e', now: 2 });
    await sync([a, empty]);
    expect((await archive.load()).map((r) => r.id)).toEqual(['a']); // runs without steps are not kept
    const a2 = { ...a, points: [...a.points, { step: 2, level: 3, scalars: { reward: 2 } }] };
    await sync([a2]);
    expect((await archive.load())[0].points).toHaveLength(2);
    await sync([]);
    expect(await archive.load()).toEqual([]);
    expect(await openRunArchive(undefined)).toBeNull();
    // One checkpoint kept: the latest replaces the one before.
    expect(await archive.keptCheckpoint()).toBeUndefined();
    await archive.keepCheckpoint({ runId: 'a', step: 50, bytes: new Uint8Array([1]) });
    await archive.keepCheckpoint({ runId: 'a', step: 100, bytes: new Uint8Array([2]) });
    expect(await archive.keptCheckpoint()).toEqual({ runId: 'a', step: 100, bytes: new Uint8Array([2]) });
  });

  it('the memory archive behaves the same (browsers without IndexedDB)', async () => {
    const archive = memoryArchive();
    const run = {
      ...makeRun([], presetConfig('sort-easy'), undefined, { id: 'm', now: 1 }),
      points: [{ step: 1, level: 0, scalars: {} }],
    };
    await archive.save(run);
    expect(await archive.load()).toEqual([run]);
    await archive.remove('m');
    expect(await archive.load()).toEqual([]);
  });
});
