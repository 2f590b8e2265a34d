/// <reference types="vite/client" />
/// <reference types="vite-plugin-pwa/client" />

/** A language's texts, split in two by the build (src/i18n/parts.ts). */
declare module '*.json?part=first' {
  const texts: Record<string, unknown>;
  export default texts;
}
declare module '*.json?part=later' {
  const texts: Record<string, unknown>;
  export default texts;
}
