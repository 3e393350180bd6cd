/** The prompts offered to start from: on the landing page, the empty project list and an empty chat. */
export const SUGGESTIONS = [
  "Build a React todo app with local storage",
  "Create a Vite landing page for a coffee shop",
  "Write a Node.js API that returns random quotes",
];
