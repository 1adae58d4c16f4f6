// PLACEHOLDER (created by the build/CI setup so the browser build and e2e smoke
// test have an entry point). Replace freely with the real playground UI.
const app = document.getElementById('app') ?? document.body;
app.textContent = 'agentOS booting';
