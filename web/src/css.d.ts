// A stylesheet imported from TypeScript (a dynamic import() needs a type; Vite bundles it).
declare module '*.css';
