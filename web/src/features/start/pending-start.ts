/**
 * A prompt typed before signing in, with its images, kept across the sign-in (which leaves the page) in
 * IndexedDB: it holds the image files as they are, where sessionStorage would need them as text and runs
 * out of room at a few megabytes. Taken (read and deleted) once, by the first page signed in.
 *
 * @example
 * await savePendingStart({ prompt: "A todo app", images: [file] }); // then to /login
 * const start = await takePendingStart(); // after sign-in: null when there is none
 */
export type PendingStart = { prompt: string; images: File[] };

const DB = "app-builder";
const STORE = "pending-start";
const KEY = "current";

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function within<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = work(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

export async function savePendingStart(start: PendingStart): Promise<void> {
  await within("readwrite", (store) => store.put({ prompt: start.prompt, images: start.images, savedAt: Date.now() }, KEY));
}

/** Reads and deletes the saved start in one transaction, so two pages cannot both start it. Older than a day: dropped. */
export async function takePendingStart(): Promise<PendingStart | null> {
  const db = await open().catch(() => null);
  if (!db) return null;
  try {
    return await new Promise<PendingStart | null>((resolve, reject) => {
      const tx = db.transaction(STORE, "readwrite");
      const store = tx.objectStore(STORE);
      let found: PendingStart | null = null;
      const get = store.get(KEY);
      get.onsuccess = () => {
        const value = get.result as (PendingStart & { savedAt?: number }) | undefined;
        if (!value) return;
        store.delete(KEY);
        if (typeof value.prompt === "string" && Date.now() - (value.savedAt ?? 0) < 24 * 3600_000) {
          found = { prompt: value.prompt, images: Array.isArray(value.images) ? value.images.filter((f) => f instanceof Blob).map(asFile) : [] };
        }
      };
      tx.oncomplete = () => resolve(found);
      tx.onerror = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

const asFile = (blob: Blob): File => (blob instanceof File ? blob : new File([blob], "image", { type: blob.type }));
