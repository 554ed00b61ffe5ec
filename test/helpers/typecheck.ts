import path from 'node:path';
import ts from 'typescript';

/**
 * Type-checks a scratch repo in-process with its own tsconfig (the repo's node_modules resolve
 * from the scratch dir's parents, so the real SDK types are used). Returns `file:line:col: message`
 * for every diagnostic in the repo's own files, except those listed in `exclude` (relative).
 * `extraOptions` are added to the repo's own tsconfig (e.g. stricter flags).
 */
const SHARED = new Map<string, ts.SourceFile>();

export function typeCheck(dir: string, exclude: string[] = [], extraOptions: ts.CompilerOptions = {}): string[] {
  const configPath = path.join(dir, 'tsconfig.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error(`cannot read ${configPath}`);
  const options = { ...parsed.options, ...extraOptions };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  // Library and package declaration files are the same for every scratch repo: parse them once.
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const shared = fileName.includes('/node_modules/') || /\/lib\.[^/]*\.d\.ts$/.test(fileName);
    const key = `${String(typeof languageVersion === 'object' ? languageVersion.languageVersion : languageVersion)}:${fileName}`;
    if (shared && SHARED.has(key)) return SHARED.get(key);
    const sf = getSourceFile(fileName, languageVersion, onError, shouldCreate);
    if (shared && sf) SHARED.set(key, sf);
    return sf;
  };
  const program = ts.createProgram({ rootNames: parsed.fileNames, options, host });
  const skipped = new Set(exclude.map((f) => path.join(dir, f)));
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => !d.file || (!skipped.has(path.resolve(d.file.fileName)) && !d.file.fileName.includes('/node_modules/')))
    .map((d) => {
      const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
      if (!d.file || d.start === undefined) return message;
      const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
      return `${path.relative(dir, d.file.fileName)}:${line + 1}:${character + 1}: ${message}`;
    });
}
