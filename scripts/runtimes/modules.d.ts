// The npm `workerd` package ships no types: its main module exports the binary's path (default),
// its version and the newest compatibility date it knows.
declare module 'workerd' {
  const binaryPath: string;
  export default binaryPath;
  export const version: string;
  export const compatibilityDate: string;
}
