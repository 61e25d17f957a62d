// Writes reference.json: the library reference, read from the package's own exports and their doc
// comments with the TypeScript compiler, plus the table of the thirteen error codes taken from the
// library's values. The service renders it at /docs/client. `renderReference` is pure, so a test can
// compare the checked-in file with what the current sources give.
//
//   npm run reference -w @profile-service/client
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { ERROR_CODES, ERROR_CODE_MEANINGS, ServiceError, WIRE_ERROR_CODES, errorDocUrl, type ServiceErrorCode } from "../src/errors";

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const REFERENCE_FILE = path.join(PACKAGE_DIR, "reference.json");
const ENTRY = path.join(PACKAGE_DIR, "src", "index.ts");

export type Member = { name: string; signature: string; doc: string };
export type Entry = {
  name: string;
  kind: "class" | "function" | "constant" | "interface" | "type" | "namespace";
  signature: string;
  doc: string;
  members: Member[];
};
export type Section = { id: string; title: string; entries: Entry[] };
export type ErrorRow = { code: ServiceErrorCode; anchor: string; meaning: string; retryable: boolean; suggestedAction: string | null; wire: string[] };
export type Reference = { name: string; version: string; sections: Section[]; errors: ErrorRow[] };

/** Sections in reading order, by the source file a declaration lives in. */
const SECTIONS: { id: string; title: string; files: string[] }[] = [
  { id: "client", title: "ProfileClient", files: ["client.ts"] },
  { id: "sign-in", title: "Sign-in links", files: ["sign-in.ts"] },
  { id: "fail-open", title: "Fail open", files: ["fail-open.ts"] },
  { id: "errors", title: "Errors", files: ["errors.ts"] },
  { id: "mcp", title: "MCP", files: ["mcp.ts"] },
  { id: "types", title: "Types", files: ["types.ts", "transport.ts", "openapi.ts"] },
];

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

function docOf(node: ts.Node, checker: ts.TypeChecker, symbol?: ts.Symbol): string {
  if (symbol) {
    const text = ts.displayPartsToString(symbol.getDocumentationComment(checker));
    if (text) return text.trim();
  }
  const jsDoc = ts.getJSDocCommentsAndTags(node).find(ts.isJSDoc);
  return typeof jsDoc?.comment === "string" ? jsDoc.comment.trim() : "";
}

/** A parameter as written, with destructured inputs named `input`. */
function parameterText(param: ts.ParameterDeclaration, file: ts.SourceFile, checker: ts.TypeChecker): string {
  const name = ts.isIdentifier(param.name) ? param.name.text : "input";
  const optional = param.questionToken || param.initializer ? "?" : "";
  const type = param.type
    ? oneLine(param.type.getText(file))
    : checker.typeToString(checker.getBaseTypeOfLiteralType(checker.getTypeAtLocation(param)), param, ts.TypeFormatFlags.NoTruncation);
  return `${param.dotDotDotToken ? "..." : ""}${name}${optional}: ${type}`;
}

function signatureText(node: ts.SignatureDeclaration, name: string, file: ts.SourceFile, checker: ts.TypeChecker): string {
  const params = node.parameters.map((p) => parameterText(p, file, checker)).join(", ");
  const typeParams = node.typeParameters ? `<${node.typeParameters.map((p) => oneLine(p.getText(file))).join(", ")}>` : "";
  let returns = node.type ? oneLine(node.type.getText(file)) : "";
  if (!returns) {
    const signature = checker.getSignatureFromDeclaration(node);
    returns = signature ? checker.typeToString(checker.getReturnTypeOfSignature(signature), node, ts.TypeFormatFlags.NoTruncation) : "void";
  }
  return `${name}${typeParams}(${params}): ${returns}`.replace(/\bt\./g, "");
}

function isPublic(member: ts.ClassElement): boolean {
  const flags = ts.getCombinedModifierFlags(member);
  return !(flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) && !(member.name && ts.isPrivateIdentifier(member.name));
}

function classEntry(name: string, node: ts.ClassDeclaration, file: ts.SourceFile, checker: ts.TypeChecker, symbol: ts.Symbol): Entry {
  const members: Member[] = [];
  for (const member of node.members) {
    if (!isPublic(member)) continue;
    if (ts.isConstructorDeclaration(member)) {
      members.unshift({ name: "constructor", signature: signatureText(member, `new ${name}`, file, checker), doc: docOf(member, checker) });
      for (const param of member.parameters) {
        const flags = ts.getCombinedModifierFlags(param);
        if (flags & ts.ModifierFlags.Readonly && ts.isIdentifier(param.name)) {
          members.push({ name: param.name.text, signature: `readonly ${parameterText(param, file, checker)}`, doc: docOf(param, checker) });
        }
      }
    } else if (ts.isMethodDeclaration(member) && member.name) {
      const methodName = member.name.getText(file);
      members.push({ name: methodName, signature: signatureText(member, methodName, file, checker), doc: docOf(member, checker, checker.getSymbolAtLocation(member.name)) });
    } else if (ts.isPropertyDeclaration(member) && member.name) {
      const propName = member.name.getText(file);
      const readonly = ts.getCombinedModifierFlags(member) & ts.ModifierFlags.Readonly ? "readonly " : "";
      const type = member.type ? oneLine(member.type.getText(file)) : checker.typeToString(checker.getTypeAtLocation(member), member, ts.TypeFormatFlags.NoTruncation);
      members.push({ name: propName, signature: `${readonly}${propName}: ${type}`, doc: docOf(member, checker, checker.getSymbolAtLocation(member.name)) });
    }
  }
  return { name, kind: "class", signature: `class ${name}`, doc: docOf(node, checker, symbol), members };
}

function interfaceEntry(name: string, node: ts.InterfaceDeclaration, file: ts.SourceFile, checker: ts.TypeChecker, symbol: ts.Symbol): Entry {
  const members: Member[] = [];
  for (const member of node.members) {
    if (!member.name) continue;
    const memberName = member.name.getText(file);
    const optional = member.questionToken ? "?" : "";
    let signature: string;
    if (ts.isPropertySignature(member)) {
      const readonly = member.modifiers?.some((m) => m.kind === ts.SyntaxKind.ReadonlyKeyword) ? "readonly " : "";
      signature = `${readonly}${memberName}${optional}: ${member.type ? oneLine(member.type.getText(file)) : "unknown"}`;
    } else if (ts.isMethodSignature(member)) {
      signature = signatureText(member, memberName, file, checker);
    } else {
      signature = oneLine(member.getText(file));
    }
    members.push({ name: memberName, signature, doc: docOf(member, checker, checker.getSymbolAtLocation(member.name)) });
  }
  return { name, kind: "interface", signature: `interface ${name}`, doc: docOf(node, checker, symbol), members };
}

function entryFor(name: string, symbol: ts.Symbol, checker: ts.TypeChecker): Entry | null {
  const node = symbol.declarations?.[0];
  if (!node) return null;
  const file = node.getSourceFile();
  if (ts.isClassDeclaration(node)) return classEntry(name, node, file, checker, symbol);
  if (ts.isInterfaceDeclaration(node)) return interfaceEntry(name, node, file, checker, symbol);
  if (ts.isFunctionDeclaration(node))
    return { name, kind: "function", signature: `function ${signatureText(node, name, file, checker)}`, doc: docOf(node, checker, symbol), members: [] };
  if (ts.isTypeAliasDeclaration(node)) {
    const params = node.typeParameters ? `<${node.typeParameters.map((p) => oneLine(p.getText(file))).join(", ")}>` : "";
    return {
      name,
      kind: "type",
      signature: `type ${name}${params} = ${oneLine(node.type.getText(file))}`.replace(/\b(t|api)\./g, ""),
      doc: docOf(node, checker, symbol),
      members: [],
    };
  }
  if (ts.isVariableDeclaration(node)) {
    const type = node.type ? oneLine(node.type.getText(file)) : checker.typeToString(checker.getTypeAtLocation(node), node, ts.TypeFormatFlags.NoTruncation);
    return { name, kind: "constant", signature: `const ${name}: ${type}`, doc: docOf(node.parent.parent, checker, symbol), members: [] };
  }
  if (ts.isSourceFile(node) || ts.isNamespaceExport(node) || ts.isModuleDeclaration(node)) {
    return { name, kind: "namespace", signature: `namespace ${name}`, doc: "", members: [] };
  }
  return null;
}

function sectionOf(symbol: ts.Symbol, checker: ts.TypeChecker): string {
  const resolved = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const decl = resolved.declarations?.[0];
  const base = decl ? path.basename(decl.getSourceFile().fileName) : "";
  return SECTIONS.find((s) => s.files.includes(base))?.id ?? "types";
}

/** The reference of the package as its sources stand. */
export function renderReference(): string {
  const program = ts.createProgram([ENTRY], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(ENTRY);
  if (!source) throw new Error(`${ENTRY} not found`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error(`${ENTRY} has no exports`);

  const bySection = new Map<string, Entry[]>(SECTIONS.map((s) => [s.id, []]));
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const resolved = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const entry = entryFor(exported.name, resolved, checker);
    if (!entry) continue;
    if (entry.kind === "namespace")
      entry.doc =
        'The request and answer types of every /v1 operation, generated from the service\'s OpenAPI document (`Api.Operations["GET /v1/profile"]`, `Api.GetV1ProfileResponse`, …).';
    bySection.get(sectionOf(exported, checker))!.push(entry);
  }
  const order = (e: Entry) => ["class", "function", "constant", "interface", "type", "namespace"].indexOf(e.kind);
  const sections = SECTIONS.map(({ id, title }) => ({
    id,
    title,
    entries: bySection.get(id)!.sort((a, b) => order(a) - order(b) || a.name.localeCompare(b.name)),
  })).filter((s) => s.entries.length > 0);

  const errors: ErrorRow[] = ERROR_CODES.map((code) => {
    const sample = new ServiceError({ code, message: "" });
    return {
      code,
      anchor: errorDocUrl(code).split("#")[1]!,
      meaning: ERROR_CODE_MEANINGS[code],
      retryable: sample.retryable,
      suggestedAction: sample.suggestedAction,
      wire: Object.entries(WIRE_ERROR_CODES)
        .filter(([, mapped]) => mapped === code)
        .map(([wire]) => wire)
        .sort(),
    };
  });
  const pkg = JSON.parse(readFileSync(path.join(PACKAGE_DIR, "package.json"), "utf8")) as { name: string; version: string };
  const reference: Reference = { name: pkg.name, version: pkg.version, sections, errors };
  return `${JSON.stringify(reference, null, 2)}\n`;
}

export const README_FILE = path.join(PACKAGE_DIR, "README.md");
const TABLE_START = "<!-- error-codes:start (generated by scripts/generate-reference.ts) -->";
const TABLE_END = "<!-- error-codes:end -->";

/** The README with its error-code table (between the two markers) made from the same rows as the reference. */
export function renderReadme(readme: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`README.md lacks the ${TABLE_START} … ${TABLE_END} markers`);
  const { errors } = JSON.parse(renderReference()) as Reference;
  const rows = errors.map((e) => `| \`${e.code}\` | ${e.meaning.replaceAll("|", "\\|")} | ${e.retryable ? "yes" : "no"} |`);
  const table = ["| Code | When | Retried |", "|---|---|---|", ...rows].join("\n");
  return `${readme.slice(0, start + TABLE_START.length)}\n${table}\n${readme.slice(end)}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(REFERENCE_FILE, renderReference());
  writeFileSync(README_FILE, renderReadme(readFileSync(README_FILE, "utf8")));
  console.log(`wrote ${path.relative(process.cwd(), REFERENCE_FILE)} and the error-code table of ${path.relative(process.cwd(), README_FILE)}`);
}
