import { describe, expect, it } from "vitest";
import { api } from "../ipc/api";
import { Fake, type Command } from "./fake";

describe("the IPC double of the UI tests", () => {
  it("answers each api function with the handler of the same name, and records what it was sent", async () => {
    const fake = new Fake().install();
    const names = Object.keys(api) as Command[];
    const reached: Command[] = [];
    for (const name of names) fake.on(name, (() => reached.push(name)) as never);
    for (const name of names) await (api[name] as (input: unknown) => Promise<unknown>)({ marker: name });
    expect(reached).toEqual(names);
    expect(fake.calls.map((c) => c.cmd)).toEqual(names);
    // Commands without an argument record none; the others record the one they were given.
    for (const call of fake.calls) if (call.input !== undefined) expect(call.input).toEqual({ marker: call.cmd });
  });

  it("fails a command once with the given IpcError, then answers it again", async () => {
    const fake = new Fake().answer("getSpend", { todayUsd: 1, budgetUsd: 2, callsToday: 0, refusedToday: 0, days: [], byEmployee: [], byModel: [] });
    fake.install().failNext("getSpend", "budget_exceeded", "spent");
    await expect(api.getSpend()).rejects.toEqual({ code: "budget_exceeded", message: "spent" });
    await expect(api.getSpend()).resolves.toMatchObject({ todayUsd: 1 });
  });

  it("refuses a command no test scripted, naming it, and holds one until released", async () => {
    const fake = new Fake({ listTraces: () => [] }).install();
    await expect(api.listChats()).rejects.toEqual({ code: "internal", message: "the test scripted no answer for list_chats" });
    let release!: () => void;
    fake.hold("listTraces", new Promise<void>((r) => (release = r)));
    let settled = false;
    const pending = api.listTraces().then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(settled).toBe(false);
    release();
    await pending;
    expect(settled).toBe(true);
  });
});
