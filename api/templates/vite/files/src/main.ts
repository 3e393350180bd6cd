import "./style.css";

const app = document.querySelector<HTMLDivElement>("#app")!;
let count = 0;
app.innerHTML = `<h1>Hello from Vite</h1><p>Edit src/main.ts and save to see it change here.</p><button id="counter">Clicked 0 times</button>`;
const button = app.querySelector<HTMLButtonElement>("#counter")!;
button.addEventListener("click", () => {
  count += 1;
  button.textContent = `Clicked ${count} times`;
});
