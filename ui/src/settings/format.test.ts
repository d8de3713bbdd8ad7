import { describe, expect, it } from "vitest";
import { emptySpend, sampleSpend } from "../test/fakeFixtures";
import {
  budgetLevel,
  envVarFor,
  formatBytes,
  formatUsd,
  isAbsolutePath,
  isHttpUrl,
  isSpendEmpty,
  keyStatus,
  normaliseModels,
  parseAmount,
  parseLocalDate,
  percentOf,
} from "./format";
import { uniqueName } from "./ProviderDialog";

describe("settings helpers", () => {
  it("parses amounts the boss types, and nothing else", () => {
    expect(parseAmount("12")).toBe(12);
    expect(parseAmount(" 2.50 ")).toBe(2.5);
    expect(parseAmount("12,5")).toBe(12.5);
    expect(parseAmount(".5")).toBe(0.5);
    expect(parseAmount("-3")).toBe(-3);
    expect(parseAmount("0")).toBe(0);
    for (const bad of ["", " ", "abc", "NaN", "Infinity", "1e3", "12abc", "1.2.3", "$5"]) expect(parseAmount(bad), bad).toBeNull();
  });

  it("grades spend against the budget: fallback from 90 %, spent at 100 %", () => {
    expect(budgetLevel(0, 10)).toBe("ok");
    expect(budgetLevel(8.99, 10)).toBe("ok");
    expect(budgetLevel(9, 10)).toBe("fallback");
    expect(budgetLevel(9.99, 10)).toBe("fallback");
    expect(budgetLevel(10, 10)).toBe("spent");
    expect(budgetLevel(12, 10)).toBe("spent");
    expect(percentOf(5, 10)).toBe(50);
    expect(percentOf(15, 10)).toBe(100);
  });

  it("names the environment variable like the Rust side", () => {
    expect(envVarFor("deepseek")).toBe("CUBICLE_API_KEY_DEEPSEEK");
    expect(envVarFor("my-ollama.2")).toBe("CUBICLE_API_KEY_MY_OLLAMA_2");
  });

  it("derives the key badge from what the backend says", () => {
    expect(keyStatus({ hasKey: true, keySource: "keychain", keyRequired: true })).toBe("keychain");
    expect(keyStatus({ hasKey: true, keySource: "environment", keyRequired: true })).toBe("environment");
    expect(keyStatus({ hasKey: false, keySource: "none", keyRequired: true })).toBe("missing");
    expect(keyStatus({ hasKey: false, keySource: "none", keyRequired: false })).toBe("not_needed");
  });

  it("normalises model lists and names", () => {
    expect(normaliseModels(["a", " b , c,", "a", ""])).toEqual(["a", "b", "c"]);
    expect(uniqueName("DeepSeek", ["deepseek", "DeepSeek 2"])).toBe("DeepSeek 3");
    expect(uniqueName("Qwen", ["DeepSeek"])).toBe("Qwen");
    expect(isHttpUrl("http://localhost:11434/v1")).toBe(true);
    expect(isHttpUrl("api.deepseek.com")).toBe(false);
    expect(isHttpUrl("ftp://x")).toBe(false);
  });

  it("accepts only full paths for a model file", () => {
    expect(isAbsolutePath("/home/ada/models/qwen.gguf")).toBe(true);
    expect(isAbsolutePath("C:\\Models\\qwen.gguf")).toBe(true);
    expect(isAbsolutePath("D:/models/qwen.gguf")).toBe(true);
    expect(isAbsolutePath("\\\\nas\\models\\qwen.gguf")).toBe(true);
    expect(isAbsolutePath("models/qwen.gguf")).toBe(false);
    expect(isAbsolutePath("~/models/qwen.gguf")).toBe(false);
    expect(isAbsolutePath("C:qwen.gguf")).toBe(false);
    expect(isAbsolutePath("")).toBe(false);
  });

  it("formats money, small amounts to the tenth of a cent", () => {
    expect(formatUsd(3.25, "en")).toBe("$3.25");
    expect(formatUsd(0.0042, "en")).toBe("$0.0042");
    expect(formatUsd(0, "en")).toBe("$0.00");
    // An empty sum in Rust is −0.0; it must not read "-$0.00".
    expect(formatUsd(-0, "en")).toBe("$0.00");
    expect(formatUsd(-0, "zh-CN")).toBe("US$0.00");
  });

  it("reads report dates as local days and knows an empty week", () => {
    const d = parseLocalDate("2025-03-07");
    expect([d?.getFullYear(), d?.getMonth(), d?.getDate()]).toEqual([2025, 2, 7]);
    expect(parseLocalDate("07/03/2025")).toBeNull();
    expect(isSpendEmpty(emptySpend())).toBe(true);
    expect(isSpendEmpty(sampleSpend())).toBe(false);
  });
});

describe("formatBytes", () => {
  it("says KB below a megabyte and MB above", () => {
    expect(formatBytes(28_590, "en")).toBe("28 KB");
    expect(formatBytes(10, "en")).toBe("1 KB");
    expect(formatBytes(93 * 1024 * 1024, "en")).toBe("93 MB");
    expect(formatBytes(1.5 * 1024 * 1024, "en")).toBe("1.5 MB");
  });
});
