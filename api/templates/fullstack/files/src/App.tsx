import { useEffect, useState, type FormEvent } from "react";

type Item = { id: number; title: string; done: boolean };

// Items are kept in the database by the API in server/api.js.
async function api<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(path, { ...init, headers: { "content-type": "application/json" } });
  if (!res.ok) throw new Error(((await res.json().catch(() => null)) as { error?: string } | null)?.error ?? res.statusText);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

export default function App() {
  const [items, setItems] = useState<Item[]>([]);
  const [title, setTitle] = useState("");
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    api<Item[]>("/api/items").then(setItems, (e: Error) => setError(e.message));
  }, []);

  async function add(event: FormEvent) {
    event.preventDefault();
    if (!title.trim()) return;
    try {
      const item = await api<Item>("/api/items", { method: "POST", body: JSON.stringify({ title }) });
      setItems((list) => [...list, item]);
      setTitle("");
    } catch (e) {
      setError((e as Error).message);
    }
  }

  async function toggle(item: Item) {
    const updated = await api<Item>(`/api/items/${item.id}`, { method: "PATCH", body: JSON.stringify({ done: !item.done }) });
    setItems((list) => list.map((i) => (i.id === item.id ? updated : i)));
  }

  async function remove(item: Item) {
    await api(`/api/items/${item.id}`, { method: "DELETE" });
    setItems((list) => list.filter((i) => i.id !== item.id));
  }

  return (
    <main className="app">
      <h1>Items</h1>
      <form onSubmit={add}>
        <input type="text" value={title} onChange={(e) => setTitle(e.target.value)} placeholder="Add an item" aria-label="New item" />
        <button type="submit">Add</button>
      </form>
      {error && <p className="error">{error}</p>}
      <ul>
        {items.map((item) => (
          <li key={item.id}>
            <input type="checkbox" checked={item.done} onChange={() => toggle(item)} aria-label={`Done: ${item.title}`} />
            <span className={item.done ? "done" : undefined}>{item.title}</span>
            <button onClick={() => remove(item)} aria-label={`Delete ${item.title}`}>×</button>
          </li>
        ))}
      </ul>
    </main>
  );
}
