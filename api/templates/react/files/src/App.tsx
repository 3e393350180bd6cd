import { useState } from "react";

export default function App() {
  const [count, setCount] = useState(0);
  return (
    <main className="mx-auto max-w-3xl px-6 py-12">
      <h1 className="text-3xl font-bold tracking-tight">Hello from React</h1>
      <p className="mt-2 text-gray-600 dark:text-gray-400">Edit src/App.tsx and save to see it change here.</p>
      <button
        type="button"
        className="mt-6 rounded-lg bg-blue-600 px-4 py-2 font-medium text-white hover:bg-blue-700"
        onClick={() => setCount((c) => c + 1)}
      >
        Clicked {count} times
      </button>
    </main>
  );
}
