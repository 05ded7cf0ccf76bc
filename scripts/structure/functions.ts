import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** A named function of a file and its length in lines (first line to last, both counted). */
export interface FunctionLength {
  file: string;
  name: string;
  lines: number;
}

const linesOf = (source: ts.SourceFile, node: ts.Node): number =>
  source.getLineAndCharacterOfPosition(node.getEnd()).line -
  source.getLineAndCharacterOfPosition(node.getStart(source)).line +
  1;

const nameText = (
  name: ts.PropertyName | ts.BindingName | undefined,
  source: ts.SourceFile,
): string | null =>
  name === undefined || ts.isObjectBindingPattern(name) || ts.isArrayBindingPattern(name)
    ? null
    : name.getText(source);

const isFunctionValue = (node: ts.Node | undefined): node is ts.ArrowFunction | ts.FunctionExpression =>
  node !== undefined && (ts.isArrowFunction(node) || ts.isFunctionExpression(node));

/** The name a function goes by: declared, a method (`Class.method`), or a function value given to a name. */
function functionName(node: ts.Node, source: ts.SourceFile, owner: string | null): string | null {
  const within = (name: string | null) => (name === null ? null : owner === null ? name : `${owner}.${name}`);
  if (ts.isFunctionDeclaration(node)) return node.name?.text ?? 'default';
  if (ts.isMethodDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node)) {
    return within(nameText(node.name, source));
  }
  if (ts.isConstructorDeclaration(node)) return within('constructor');
  if (
    (ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node)) &&
    isFunctionValue(node.initializer)
  ) {
    return within(nameText(node.name, source));
  }
  if (ts.isPropertyAssignment(node) && isFunctionValue(node.initializer))
    return within(nameText(node.name, source));
  return null;
}

/** Every named function of `file` (function declarations, methods, function values given a name). */
export function functionLengths(file: string, root: string): FunctionLength[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const relative = path.relative(root, file);
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node, owner: string | null): void => {
    const name = functionName(node, source, owner);
    if (name !== null) found.push({ file: relative, name, lines: linesOf(source, node) });
    const isClass = ts.isClassDeclaration(node) || ts.isClassExpression(node);
    const inner = isClass ? (node.name?.text ?? 'class') : owner;
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  visit(source, null);
  return found;
}
