/** Stylesheets are imported for their effect: Vite bundles them into a file under assets/. */
declare module '*.css';
