/// <reference types="vite/client" />

/** A section of a catalogue (vite.config.ts `catalogueSections`). */
declare module '*.json?admin' {
  const section: Record<string, unknown>;
  export default section;
}
