/** Vite bundles a stylesheet a module imports for its side effect; the compiler needs to know the import is fine. */
declare module '*.css';
