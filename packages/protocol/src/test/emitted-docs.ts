import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// The TSDoc of the declarations tsc emits for this package (read by wire-types.test.ts).

/** Folds white space: how a TSDoc comment and a description compare. */
export const clean = (text: string): string => text.replace(/\s+/g, ' ').trim();

let emitted: Map<string, string> | undefined;

/** `Interface.member[.member]` → TSDoc, from the declarations tsc emits for the package. */
export function emittedDocs(): Map<string, string> {
  emitted ??= emitDocs();
  return emitted;
}

/** The object literal a member's type holds, through `| null`, `| undefined`, `[]` and parentheses. */
function typeLiteral(type: ts.TypeNode): ts.TypeLiteralNode | undefined {
  if (ts.isTypeLiteralNode(type)) return type;
  if (ts.isArrayTypeNode(type)) return typeLiteral(type.elementType);
  if (ts.isParenthesizedTypeNode(type)) return typeLiteral(type.type);
  if (ts.isUnionTypeNode(type)) return type.types.map(typeLiteral).find((found) => found);
  return undefined;
}

/** Emits the package's declarations in memory and reads every interface member's TSDoc. */
function emitDocs(): Map<string, string> {
  const config = fileURLToPath(new URL('../../tsconfig.build.json', import.meta.url));
  const read = ts.getParsedCommandLineOfConfigFile(
    config,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!read) throw new Error(`cannot read ${config}`);
  const options = { ...read.options, declaration: true, emitDeclarationOnly: true, noEmit: false };
  const program = ts.createProgram(read.fileNames, options);
  const docs = new Map<string, string>();
  program.emit(undefined, (name, text) => {
    if (!name.endsWith('.d.ts')) return;
    const file = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
    const collect = (members: ts.NodeArray<ts.TypeElement>, prefix: string): void => {
      for (const member of members) {
        if (!ts.isPropertySignature(member)) continue;
        const path = `${prefix}.${member.name.getText(file)}`;
        const doc = ts
          .getJSDocCommentsAndTags(member)
          .filter(ts.isJSDoc)
          .map((d) => ts.getTextOfJSDocComment(d.comment) ?? '')
          .join(' ');
        if (doc) docs.set(path, clean(doc));
        const literal = member.type && typeLiteral(member.type);
        if (literal) collect(literal.members, path);
      }
    };
    for (const statement of file.statements) {
      if (ts.isInterfaceDeclaration(statement)) collect(statement.members, statement.name.text);
    }
  });
  return docs;
}
