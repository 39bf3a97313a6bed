import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The repository's root directory, with a trailing slash. */
export const root = fileURLToPath(new URL('../..', import.meta.url));

/** The compiler options of the repository's tsconfig.json. */
function compilerOptions(): ts.CompilerOptions {
  const config = ts.getParsedCommandLineOfConfigFile(
    `${root}tsconfig.json`,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json not read');
  return config.options;
}

/**
 * One program over files that exist only in memory (absolute path → source), compiled with the
 * repository's tsconfig.json, whose `paths` resolve 'telephony-sdk', 'telephony-sdk/webhooks' and
 * 'telephony-sdk/testing' to src/ — so they see the public entries as a user's code does.
 */
export function compileVirtualFiles(files: ReadonlyMap<string, string>): ts.Program {
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) => {
    const text = files.get(name);
    return text === undefined
      ? getSourceFile(name, version, ...rest)
      : ts.createSourceFile(name, text, version);
  };
  return ts.createProgram([...files.keys()], options, host);
}

/**
 * A language service over files that exist only in memory (absolute path → source) beside the
 * repository's package.json, compiled with tsconfig.json's strict options but without its `paths`:
 * 'telephony-sdk' resolves through the package's own `exports` to the built dist/, as in a user's
 * editor. Build first (`ensureBuilt`).
 */
export function builtPackageService(files: ReadonlyMap<string, string>): ts.LanguageService {
  const { paths: _, ...options } = compilerOptions();
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => ({ ...options, skipLibCheck: false }),
    getScriptFileNames: () => [...files.keys()],
    getScriptVersion: () => '1',
    getScriptSnapshot: (name) => {
      const text = files.get(name) ?? ts.sys.readFile(name);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => root,
    getDefaultLibFileName: ts.getDefaultLibFilePath,
    fileExists: (name) => files.has(name) || ts.sys.fileExists(name),
    readFile: (name) => files.get(name) ?? ts.sys.readFile(name),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  return ts.createLanguageService(host);
}
