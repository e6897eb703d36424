// A tiny promise wrapper over IndexedDB: one database, object stores of plain values with
// explicit keys. No dependency; the factory is injectable so the wrapper is tested on a fake.

/** IDBRequest as a promise. */
export function requestToPromise<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

/** Opens (creating or upgrading) a database whose stores are `storeNames`. */
export function openDatabase(
  name: string,
  version: number,
  storeNames: readonly string[],
  factory: IDBFactory = indexedDB,
): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = factory.open(name, version);
    req.onupgradeneeded = () => {
      const db = req.result;
      for (const s of storeNames) if (!db.objectStoreNames.contains(s)) db.createObjectStore(s);
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error(`cannot open IndexedDB database ${name}`));
    req.onblocked = () => reject(new Error(`IndexedDB database ${name} is blocked by another tab`));
  });
}

/** One object store: get / put / delete / all, each its own transaction. */
export class KeyValueStore<T> {
  constructor(
    private readonly db: IDBDatabase,
    private readonly storeName: string,
  ) {}

  private store(mode: IDBTransactionMode): IDBObjectStore {
    return this.db.transaction(this.storeName, mode).objectStore(this.storeName);
  }

  async get(key: string): Promise<T | undefined> {
    return (await requestToPromise(this.store('readonly').get(key))) as T | undefined;
  }

  async put(key: string, value: T): Promise<void> {
    await requestToPromise(this.store('readwrite').put(value, key));
  }

  async delete(key: string): Promise<void> {
    await requestToPromise(this.store('readwrite').delete(key));
  }

  async all(): Promise<T[]> {
    return (await requestToPromise(this.store('readonly').getAll())) as T[];
  }

  async clear(): Promise<void> {
    await requestToPromise(this.store('readwrite').clear());
  }
}
