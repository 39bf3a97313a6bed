/**
 * The TypeScript the package ships for its source maps (dist/src/): each source file without its
 * comments. A comment becomes spaces (its line breaks stay) and lines lose their trailing blanks, so
 * every line and every column of code is where it is in the repository's src/: a map's positions,
 * and a stack trace's `src/…ts:line:column`, point at the same code in either copy. The comments
 * explain the code to its maintainers and are half of src/'s bytes; the declarations (.d.cts) keep
 * the API's documentation for editors.
 */
import ts from 'typescript';

/** Every comment of `text`, as [start, end) offsets, in order. */
function commentRanges(text: string, fileName: string): [number, number][] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const ranges = new Map<number, number>();
  // Between two tokens, the comments on the first one's line are its trailing comments and the rest
  // the next one's leading comments: visiting every token, end-of-file included, finds them all.
  const visit = (node: ts.Node): void => {
    const around = [
      ...(ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []),
      ...(ts.getTrailingCommentRanges(text, node.getEnd()) ?? []),
    ];
    for (const range of around) ranges.set(range.pos, range.end);
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...ranges].sort(([a], [b]) => a - b);
}

/** `text` with its comments blanked out, every line and column of its code kept. */
export function withoutComments(text: string, fileName: string): string {
  let out = '';
  let at = 0;
  for (const [start, end] of commentRanges(text, fileName)) {
    out += text.slice(at, start) + text.slice(start, end).replace(/[^\r\n]/g, ' ');
    at = end;
  }
  out += text.slice(at);
  return out.replace(/[ \t]+$/gm, '');
}
