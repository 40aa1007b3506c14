/// <reference types="vite/client" />
// CSS imports of the console features (Vite bundles them into the page's stylesheet).
