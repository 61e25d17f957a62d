// The `required` grammar, row by row from the specification.
import { describe, expect, it } from "vitest";
import { isMailboxOnly, parseRequiredList, parseRequiredParam, RequiredError, requiredMet } from "@/lib/required/entries";

describe("required on an authorize URL", () => {
  it("separates entries by ',' and alternatives by '|', and reads email as gmail|outlook", () => {
    expect(parseRequiredParam("gmail|outlook,chatgpt")).toEqual([["gmail", "outlook"], ["chatgpt"]]);
    expect(parseRequiredParam(decodeURIComponent("email%7Cnotion,claude"))).toEqual([["gmail", "outlook", "notion"], ["claude"]]);
    expect(parseRequiredParam("email")).toEqual([["gmail", "outlook"]]);
    expect(parseRequiredParam(" Gmail , Notion ")).toEqual([["gmail"], ["notion"]]);
  });

  it("drops unknown names silently; an entry left empty no longer holds", () => {
    expect(parseRequiredParam("gmial,chatgpt")).toEqual([["chatgpt"]]);
    expect(parseRequiredParam("gmial|outlook")).toEqual([["outlook"]]);
    expect(parseRequiredParam("sheets")).toEqual([]);
    expect(parseRequiredParam("")).toEqual([]);
    expect(parseRequiredParam(null)).toEqual([]);
    expect(parseRequiredParam(",,")).toEqual([]);
  });

  it("is met when every entry has one of its alternatives", () => {
    const entries = parseRequiredParam("email,chatgpt");
    expect(requiredMet(entries, ["outlook", "chatgpt"])).toBe(true);
    expect(requiredMet(entries, ["gmail"])).toBe(false);
    expect(requiredMet([], [])).toBe(true);
  });

  it("knows an entry made only of mailboxes", () => {
    expect(parseRequiredParam("email").map(isMailboxOnly)).toEqual([true]);
    expect(parseRequiredParam("gmail").map(isMailboxOnly)).toEqual([true]);
    expect(parseRequiredParam("gmail|notion").map(isMailboxOnly)).toEqual([false]);
  });
});

describe("required in a partner session body", () => {
  it("reads an inner list as alternatives and a flat list as all of them", () => {
    expect(parseRequiredList([["gmail", "outlook"], "chatgpt"])).toEqual([["gmail", "outlook"], ["chatgpt"]]);
    expect(parseRequiredList(["gmail", "outlook"])).toEqual([["gmail"], ["outlook"]]);
  });

  it("refuses unknown names, assistants that are not a source, and anything not a list, naming them", () => {
    expect(() => parseRequiredList(["gmial", "chatgpt"])).toThrow(new RequiredError("required names what this session does not accept: gmial", ["gmial"]));
    const notSource = () => parseRequiredList(["claude"], { sources: ["chatgpt"] });
    expect(notSource).toThrow("required names what this session does not accept: claude");
    expect(parseRequiredList(["chatgpt"], { sources: ["chatgpt"] })).toEqual([["chatgpt"]]);
    expect(() => parseRequiredList("gmail,chatgpt")).toThrow("required must be a list");
    expect(() => parseRequiredList([42])).toThrow("required names what this session does not accept: 42");
  });
});
