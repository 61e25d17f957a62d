// Process-wide state lives in lib/process-wide.ts: no module of lib/ keeps its own (a module-level
// let or var, a mutable Map or Set, a property written on globalThis), each key has one owner, and
// every copy of the library loaded into the process gets the same value for a key.
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it, vi } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
/** The helper itself and Prisma's generated client are not held to the rule. */
const EXEMPT: ReadonlySet<string> = new Set(["lib/platform/db/generated", "lib/process-wide.ts"]);
const COLLECTIONS: ReadonlySet<string> = new Set(["Map", "WeakMap", "Set", "WeakSet"]);
const HELPERS: ReadonlySet<string> = new Set(["processWide", "processWideSlot"]);

function libFiles(dir = "lib"): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (EXEMPT.has(rel)) return [];
    if (entry.isDirectory()) return libFiles(rel);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [rel] : [];
  });
}

/** The expression under parentheses, `as`, `satisfies` and `!`. */
function unwrap(e: ts.Expression): ts.Expression {
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isNonNullExpression(e) || ts.isTypeAssertionExpression(e)) e = e.expression;
  return e;
}

const isGlobalThis = (e: ts.Expression) => {
  const u = unwrap(e);
  return ts.isIdentifier(u) && u.text === "globalThis";
};

/** `globalThis.x` or `globalThis[x]`, through casts. */
function onGlobalThis(e: ts.Expression): boolean {
  const u = unwrap(e);
  return (ts.isPropertyAccessExpression(u) || ts.isElementAccessExpression(u)) && isGlobalThis(u.expression);
}

const isAssignment = (kind: ts.SyntaxKind) => kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment;

function isReadonlyType(type: ts.TypeNode | undefined): boolean {
  return !!type && ts.isTypeReferenceNode(type) && /^Readonly/.test(type.typeName.getText());
}

interface Scan {
  problems: string[];
  /** Each processWide key, with where it is claimed. */
  keys: Array<{ key: string; at: string }>;
}

/** What a lib/ file does that the rule forbids, each as "file:line: what". */
function scan(file: string, text: string): Scan {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const at = (node: ts.Node) => `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  const result: Scan = { problems: [], keys: [] };
  const problem = (node: ts.Node, what: string) => result.problems.push(`${at(node)}: ${what}`);

  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const flags = statement.declarationList.flags;
    const isLet = (flags & ts.NodeFlags.Let) !== 0;
    if (isLet || (flags & ts.NodeFlags.BlockScoped) === 0) {
      problem(statement, `module-level ${isLet ? "let" : "var"}: keep it in processWide()`);
      continue;
    }
    for (const declaration of statement.declarationList.declarations) {
      const init = declaration.initializer && unwrap(declaration.initializer);
      if (!init) continue;
      if (ts.isNewExpression(init) && ts.isIdentifier(init.expression) && COLLECTIONS.has(init.expression.text) && !isReadonlyType(declaration.type)) {
        problem(
          declaration,
          `module-level new ${init.expression.text}: keep it in processWide(), or type it Readonly${init.expression.text.replace("Weak", "")} if it never changes`,
        );
      }
      if (isGlobalThis(init)) problem(declaration, "an alias of globalThis: keep process state in processWide()");
    }
  }

  const visit = (node: ts.Node): void => {
    if (ts.isBinaryExpression(node) && isAssignment(node.operatorToken.kind) && onGlobalThis(node.left)) problem(node, "writes a property of globalThis: use processWide()");
    if ((ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) && onGlobalThis(node.operand)) problem(node, "writes a property of globalThis: use processWide()");
    if (ts.isDeleteExpression(node) && onGlobalThis(node.expression)) problem(node, "deletes a property of globalThis: use processWide()");
    if (ts.isCallExpression(node)) {
      const callee = unwrap(node.expression);
      const [first] = node.arguments;
      if (first && isGlobalThis(first) && ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && ["Object", "Reflect"].includes(callee.expression.text)) {
        problem(node, `${callee.getText()} on globalThis: use processWide()`);
      }
      if (ts.isIdentifier(callee) && HELPERS.has(callee.text)) {
        if (first && ts.isStringLiteralLike(first)) result.keys.push({ key: first.text, at: at(node) });
        else problem(node, `${callee.text}() with a key that is not a string literal: name each key once, literally`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return result;
}

describe("process-wide state", () => {
  const scans = libFiles().map((file) => scan(file, readFileSync(path.join(root, file), "utf8")));

  it("is kept only through lib/process-wide.ts: no module-level let, mutable collection or globalThis write in lib/", () => {
    expect(scans.flatMap((s) => s.problems)).toEqual([]);
  });

  it("has one owner per key", () => {
    const claims = new Map<string, string[]>();
    for (const { key, at } of scans.flatMap((s) => s.keys)) claims.set(key, [...(claims.get(key) ?? []), at]);
    expect([...claims].filter(([, where]) => where.length > 1)).toEqual([]);
    // The scan sees the state it is meant to see.
    expect([...claims.keys()]).toEqual(expect.arrayContaining(["db", "env", "cache.entries", "ratelimit.stores", "oidc.key-ring"]));
  });

  it("flags each form the rule forbids", () => {
    const sample = [
      "let a = 1;",
      "var b = 2;",
      "export let c: string | undefined;",
      "const d = new Map<string, number>();",
      "const e = new WeakMap<object, string>();",
      "const f = new Set([1]);",
      "const g = new WeakSet<object>();",
      "const h = globalThis as unknown as { x?: number };",
      "(globalThis as { y?: number }).y = 1;",
      "(globalThis as { z?: number[] }).z ??= [];",
      "Object.assign(globalThis, { w: 1 });",
      "function i(key: string) { return processWide(key, () => 1); }",
      "const fine: ReadonlySet<string> = new Set(['a']);",
      "const alsoFine: ReadonlyMap<string, number> = new Map([['a', 1]]);",
      "const slot = processWide('sample', () => ({ current: 0 }));",
      "function local() { let n = 0; const m = new Map(); return [n++, m]; }",
      "const read = globalThis.fetch;",
    ].join("\n");
    const found = scan("lib/sample.ts", sample);
    expect(found.problems.map((p) => p.split(":")[1])).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"]);
    expect(found.keys).toEqual([{ key: "sample", at: "lib/sample.ts:15" }]);
  });
});

describe("processWide", () => {
  it("gives every copy of the module the same value for a key, made once", async () => {
    const first = await import("@/lib/process-wide");
    vi.resetModules();
    const second = await import("@/lib/process-wide");
    expect(second.processWide).not.toBe(first.processWide);

    const key = `test.${randomUUID()}`;
    const init = vi.fn(() => ({ made: randomUUID() }));
    const value = first.processWide(key, init);
    expect(second.processWide(key, init)).toBe(value);
    expect(first.processWide(key, init)).toBe(value);
    expect(init).toHaveBeenCalledTimes(1);

    const slot = first.processWideSlot<number>(`${key}.slot`);
    slot.current = 7;
    expect(second.processWideSlot<number>(`${key}.slot`)).toBe(slot);
    expect(second.processWideSlot<number>(`${key}.slot`).current).toBe(7);
  });

  it("keeps nothing when init throws, so the next use tries again", async () => {
    const { processWide } = await import("@/lib/process-wide");
    const key = `test.${randomUUID()}`;
    expect(() =>
      processWide(key, () => {
        throw new Error("not yet");
      }),
    ).toThrow("not yet");
    expect(processWide(key, () => "made")).toBe("made");
  });

  it("shares a library module's state between two loaded copies of it", async () => {
    const clockA = await import("@/lib/platform/clock");
    const envA = await import("@/lib/env");
    vi.resetModules();
    const clockB = await import("@/lib/platform/clock");
    const envB = await import("@/lib/env");
    expect(clockB.now).not.toBe(clockA.now);

    clockA.advanceClockForTests(3_600_000);
    try {
      expect(clockB.now().getTime()).toBeGreaterThanOrEqual(Date.now() + 3_599_000);
    } finally {
      clockB.resetClockForTests();
    }
    expect(Math.abs(clockA.now().getTime() - Date.now())).toBeLessThan(1_000);

    expect(envB.env()).toBe(envA.env());
    envA.resetEnvForTests();
    const reloaded = envB.env();
    expect(envA.env()).toBe(reloaded);
  });
});
