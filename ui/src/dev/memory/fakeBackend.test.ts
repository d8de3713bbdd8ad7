import { invoke } from "@tauri-apps/api/core";
import { clearMocks } from "@tauri-apps/api/mocks";
import { afterEach, describe, expect, it } from "vitest";
import { api } from "../../ipc/api";
import { newCardText } from "../../settings/roles/roster";
import { demoBackend } from "../demoCompany";
import { DEMO_SERVER } from "../demoProxies";
import type { Args, CommandName } from "./commandTable";
import { FakeBackend } from "./fakeBackend";
import { exportBundle } from "./fakeBundle";
import { finishDownload, progressDownload } from "./fakeModels";

afterEach(() => clearMocks());

/** The demo company of /mock.html, in English, with every seeded thing. */
const demo = () => demoBackend({ language: "en", has: () => false });

const person = (b: FakeBackend, name: string) => b.people.find((p) => p.name === name)?.id ?? -1;
const waiting = (b: FakeBackend) => b.approvals.find((a) => a.status === "waiting") ?? b.addApproval(31, "post_webhook");
const MODEL = "qwen2.5-1.5b-instruct-q4_k_m";
const b64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

/** A proposal of the fake secretary (a hire), and the id of its card. */
function proposedHire(b: FakeBackend): number {
  b.call("secretary_say", { input: { text: "Hire a QA engineer named Ivy into Engineering" } });
  return b.secretaryMessages.at(-1)?.actions[0]?.id ?? -1;
}

/**
 * Plausible arguments for every command on the demo company (setting up what a command needs
 * first). Typed by the command map: a command added to the app and not here fails to compile.
 */
const CASES: { [K in CommandName]: (b: FakeBackend) => Args<K> } = {
  ui_first_paint: () => ({}),
  list_approvals: () => ({ input: { kind: "pending" } }),
  decide_approval: (b) => {
    const a = waiting(b);
    return { input: { approvalId: a.id, decision: "approve", note: null, argsHash: a.argsHash } };
  },
  decide_approvals: (b) => {
    const a = waiting(b);
    return { input: { decisions: [{ approvalId: a.id, decision: "reject", note: "not now", argsHash: a.argsHash }] } };
  },
  webhook_destinations: () => ({}),
  set_webhook_destinations: () => ({ input: { hosts: ["https://hooks.slack.com/services/T000/B000"] } }),
  export_company: () => ({}),
  save_company_bundle: () => ({ fileName: "acme.json" }),
  import_company: (b) => {
    // This company's bundle, into the same backend emptied (as a fresh install).
    const json = exportBundle(b);
    Object.assign(b, { company: null, departments: [], employees: [], providers: b.providers.filter((p) => p.builtin) });
    return { json };
  },
  imported_to_confirm: () => ({}),
  confirm_imported: (b) => {
    const p = b.providers.find((x) => !x.builtin) ?? b.providers[0]!;
    p.importedUnconfirmed = true;
    return { input: { kind: "provider_url", providerId: p.id, baseUrl: p.baseUrl } };
  },
  list_chats: () => ({}),
  chat_view: () => ({ input: { chatId: 1 } }),
  post_message: () => ({ input: { chatId: 1, text: "Standup in five minutes" } }),
  mark_chat_read: () => ({ input: { chatId: 1 } }),
  open_boss_chat: () => ({ input: { employeeId: 11 } }),
  create_group: () => ({ input: { name: "Launch", memberIds: [11, 31], mode: "work" } }),
  employee_profile: () => ({ input: { employeeId: 11 } }),
  delete_memory: (b) => ({ input: { memoryId: (b.memories[0] ?? b.addMemory(11, "Prefers Rust")).id } }),
  reset_relationships: () => ({ input: { employeeId: 11, otherId: null } }),
  relationship_graph: () => ({}),
  employee_tools: () => ({ input: { employeeId: 12 } }),
  set_employee_tools: () => ({ input: { employeeId: 21, policy: null, tools: ["read_file", "write_file"], cliCommand: null } }),
  employee_network_access: () => ({ input: { employeeId: 13 } }),
  set_employee_network_access: () => ({ input: { employeeId: 13, allowed: true } }),
  list_mail: () => ({ input: { status: null, kind: null, employeeId: null } }),
  set_mail_status: (b) => ({ input: { mailId: b.mail[0]?.id ?? -1, status: "archived" } }),
  get_dashboard: () => ({}),
  list_local_models: () => ({}),
  start_model_download: () => ({ input: { modelId: MODEL } }),
  pause_model_download: (b) => {
    progressDownload(b, MODEL, 1024, 512);
    return { input: { modelId: MODEL } };
  },
  cancel_model_download: (b) => {
    progressDownload(b, MODEL, 1024, 512);
    return { input: { modelId: MODEL } };
  },
  use_local_model: (b) => {
    finishDownload(b, MODEL);
    return { input: { modelId: MODEL } };
  },
  use_local_model_for: (b) => {
    finishDownload(b, MODEL);
    return { input: { modelId: MODEL, purpose: "thought" } };
  },
  detect_local_servers: () => ({}),
  add_local_server: (b) => {
    b.localServers.push({ kind: "ollama", name: "Ollama", baseUrl: "http://localhost:11434/v1", models: ["qwen2.5:7b"], added: false });
    return { input: { kind: "ollama", baseUrl: "http://localhost:11434/v1", model: null } };
  },
  get_org: () => ({}),
  list_role_templates: () => ({}),
  setup_company: (b) => {
    b.company = null;
    return { input: { name: "Acme", bossName: "Ada", language: "en", mission: null } };
  },
  update_company: () => ({ input: { name: null, mission: "Ship weekly", bossName: null, language: null } }),
  create_department: () => ({ input: { name: "Research", parentId: null, mission: null } }),
  rename_department: () => ({ input: { id: 3, name: "Growth" } }),
  move_department: () => ({ input: { id: 2, parentId: null } }),
  delete_department: () => ({ input: { id: 2, reassignTo: 1 } }),
  set_department_lead: () => ({ input: { departmentId: 3, employeeId: 31 } }),
  hire_employee: () => ({ input: { name: "Ada Lovelace", title: "Engineer", departmentId: 1, managerId: 11, archetype: null } }),
  move_employee: () => ({ input: { employeeId: 41, departmentId: 1 } }),
  set_manager: () => ({ input: { employeeId: 13, managerId: 21 } }),
  fire_employee: () => ({ input: { employeeId: 32 } }),
  set_employee_backend: () => ({ input: { employeeId: 11, provider: "openai", model: "gpt-4.1" } }),
  list_people: () => ({}),
  invite_person: () => ({ input: { name: "Mia", role: "Operations", language: null, approvalPolicy: null, departments: [], employees: [] } }),
  update_person: (b) => ({ input: { id: person(b, "Lin Chen"), role: "CMO", language: null, approvalPolicy: null, departments: null, employees: null } }),
  remove_person: (b) => ({ input: { personId: person(b, "Sam Ortiz") } }),
  desk_user: () => ({}),
  use_desk_as: (b) => ({ input: { personId: person(b, "Lin Chen") } }),
  proxy_card: (b) => ({ input: { personId: person(b, "Lin Chen") } }),
  proxy_conversation: (b) => ({ input: { personId: person(b, "Lin Chen") } }),
  proxy_written: (b) => ({ input: { personId: person(b, "Lin Chen") } }),
  say_to_proxy: (b) => ({ input: { personId: person(b, "Sam Ortiz"), text: "tell Lin Chen the demo is at three" } }),
  correct_proxy_line: (b) => {
    const lin = person(b, "Lin Chen");
    const line = b.chatMessages.find((m) => m.senderKind === "proxy" && m.senderPersonId === lin && !b.chatMessages.some((c) => c.correctsId === m.id));
    return { input: { personId: lin, messageId: line?.id ?? -1, text: "发布会改到下周二" } };
  },
  list_role_cards: () => ({}),
  save_role_card: () => ({ input: { key: "marketing/growth-hacker", text: newCardText("en") } }),
  duplicate_role_card: () => ({ input: { key: "qa", newKey: "qa-lead" } }),
  delete_role_card: (b) => {
    b.call("save_role_card", { input: { key: "marketing/growth-hacker", text: newCardText("en") } });
    return { input: { key: "marketing/growth-hacker" } };
  },
  preview_roster: () => ({ input: { files: [{ name: "roster/marketing/growth-hacker.md", base64: b64(newCardText("en")) }] } }),
  import_roster: () => ({ input: { files: [{ name: "roster/marketing/growth-hacker.md", base64: b64(newCardText("en")) }] } }),
  export_role_cards: () => ({}),
  secretary_history: () => ({}),
  secretary_say: () => ({ input: { text: "How is the company doing?" } }),
  secretary_confirm: (b) => ({ input: { actionId: proposedHire(b), edits: null } }),
  secretary_cancel: (b) => ({ input: { actionId: proposedHire(b) } }),
  secretary_undo: (b) => {
    const actionId = proposedHire(b);
    b.call("secretary_confirm", { input: { actionId, edits: null } });
    return { input: { actionId } };
  },
  sign_in_to_server: () => ({ input: { url: `postgres://lin:lin-secret@${DEMO_SERVER}` } }),
  sign_out_of_server: () => ({}),
  restart_app: () => ({}),
  list_presets: () => ({}),
  list_providers: () => ({}),
  save_provider: () => ({
    input: { id: null, name: "Work OpenAI", preset: "openai", baseUrl: "https://api.openai.com/v1", defaultModel: "gpt-4.1-mini", models: [], enabled: true },
  }),
  delete_provider: () => ({ input: { providerId: "deepseek" } }),
  set_provider_key: () => ({ input: { providerId: "deepseek", key: "sk-test" } }),
  delete_provider_key: () => ({ input: { providerId: "openai" } }),
  test_provider: () => ({ input: { providerId: "openai", model: null } }),
  get_routes: () => ({}),
  set_route: () => ({ input: { purpose: "summary", providerId: "openai", model: "gpt-4.1-mini" } }),
  list_builtin_purposes: () => ({ input: { providerId: "openai" } }),
  use_provider_for_builtin_purposes: () => ({ input: { providerId: "openai" } }),
  list_prices: () => ({}),
  set_price: () => ({ input: { providerId: "openai", model: "gpt-4.1", inputPerMtok: 2, outputPerMtok: 8 } }),
  set_budget: () => ({ input: { dailyBudgetUsd: 25 } }),
  get_spend: () => ({}),
  connection: () => ({}),
  builtin_status: () => ({}),
  thought_model: () => ({}),
  set_builtin_model: () => ({ input: { path: null } }),
  list_traces: () => ({}),
  get_trace: (b) => ({ input: { id: b.traces[0]?.id ?? "" } }),
  requirements_board: () => ({}),
  set_requirement_status: (b) => ({ input: { requirementId: b.requirements[0]?.id ?? -1, status: "done" } }),
  get_deliverable: (b) => {
    const task = b.workTasks[0] ?? b.addWorkTask(11, "Write the launch plan");
    b.deliverables.set(task.id, { taskId: task.id, path: `deliverables/${task.id}.md`, text: "# Launch plan", cut: false });
    return { input: { taskId: task.id } };
  },
  set_reviewer: (b) => ({ input: { requirementId: b.requirements[0]?.id ?? -1, reviewerId: 11 } }),
  meeting_view: (b) => ({ input: { chatId: b.meetings[0]?.chatId ?? -1 } }),
  close_meeting: (b) => ({ input: { chatId: b.meetings.find((m) => m.status === "open")?.chatId ?? -1 } }),
};

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

describe("the dev backend's commands", () => {
  it("answers exactly the commands of the generated map", () => {
    const generated = Object.keys(api).map(snake).sort();
    expect(new FakeBackend().commandNames().sort()).toEqual(generated);
    expect(Object.keys(CASES).sort()).toEqual(generated);
  });

  it("answers every command sent through the IPC with plausible arguments on the demo company", async () => {
    const failed: Array<{ cmd: string; error: unknown }> = [];
    for (const cmd of Object.keys(CASES) as CommandName[]) {
      const b = demo();
      const args: Record<string, unknown> = CASES[cmd](b);
      try {
        await invoke(cmd, args);
      } catch (error) {
        failed.push({ cmd, error });
      }
      expect(b.callsOf(cmd).length, cmd).toBe(1);
    }
    expect(failed).toEqual([]);
  });

  it("refuses a name that is no command as the shell does, naming it", async () => {
    demo();
    await expect(invoke("no_such_command", {})).rejects.toEqual({ code: "internal", message: "unknown command no_such_command" });
  });
});

describe("the commands the dev backend lacked", () => {
  it("a proxy tells another person in the chat between the two, and that person's proxy tells them", () => {
    const b = demo();
    const sam = person(b, "Sam Ortiz");
    const lin = person(b, "Lin Chen");
    const turn = b.call("say_to_proxy", { input: { personId: sam, text: "tell Lin Chen the demo is at three" } });
    if (turn instanceof Promise) throw new Error("answered at once");
    expect(turn.posted).toMatchObject({ senderKind: "proxy", senderPersonId: sam, text: "The demo is at three" });
    // The demo's Lin told Sam first: their chat is named after her.
    expect(b.chats.find((c) => c.id === turn.posted?.chatId)).toMatchObject({ kind: "people", name: "Lin Chen · Sam Ortiz" });
    expect(turn.reply.text).toBe("I told Lin Chen in your name: “The demo is at three”.");
    expect(b.proxyLines.filter((l) => l.personId === lin).at(-1)?.text).toBe("Sam Ortiz（通过代理）告诉你：“The demo is at three”。");
  });

  it("a proxy gives a task only for employees its person answers for, and a person corrects a line once", () => {
    const b = demo();
    const sam = person(b, "Sam Ortiz");
    const mine = b.call("say_to_proxy", { input: { personId: sam, text: "ask Nikola Tesla to benchmark the new cache" } });
    const theirs = b.call("say_to_proxy", { input: { personId: sam, text: "ask Don Draper to draft the launch post" } });
    if (mine instanceof Promise || theirs instanceof Promise) throw new Error("answered at once");
    expect(mine.reply.text).toMatch(/^I gave Nikola Tesla a task in your name \(#\d+\): benchmark the new cache\.$/);
    expect(b.workTasks.at(-1)).toMatchObject({ ownerId: 41, description: "benchmark the new cache", createdBy: "person" });
    expect(theirs.reply.text).toContain("Don Draper is not someone you answer for (Lin Chen does)");
    const told = b.call("say_to_proxy", { input: { personId: sam, text: "tell Lin Chen the build is green" } });
    if (told instanceof Promise || told.posted === null) throw new Error("posted at once");
    const fixed = b.call("correct_proxy_line", { input: { personId: sam, messageId: told.posted.id, text: "The build is green again" } });
    expect(fixed).toMatchObject({ senderKind: "person", correctsId: told.posted.id });
    expect(b.call("proxy_written", { input: { personId: sam } })).toContainEqual({ message: told.posted, correctedBy: (fixed as { id: number }).id });
    expect(() => b.call("correct_proxy_line", { input: { personId: sam, messageId: told.posted!.id, text: "again" } })).toThrow(
      expect.objectContaining({ code: "invalid_input" }),
    );
    expect(() => b.call("correct_proxy_line", { input: { personId: person(b, "Lin Chen"), messageId: told.posted!.id, text: "mine" } })).toThrow(
      expect.objectContaining({ code: "not_your_decision" }),
    );
  });

  it("saves, duplicates and deletes role cards, refusing one that does not parse with where and why; hiring templates follow", () => {
    const b = new FakeBackend().install();
    expect(() => b.call("save_role_card", { input: { key: "ops/sre", text: "---\nname: SRE\ntemperature: warm\n---\n" } })).toThrow(
      expect.objectContaining({ code: "invalid_input", message: 'ops/sre.md:3 (temperature): "warm" is not a number' }),
    );
    b.call("save_role_card", { input: { key: "marketing/growth-hacker", text: newCardText("zh-CN") } });
    expect(b.call("list_role_templates", {})).toContainEqual({
      key: "marketing/growth-hacker",
      title: "Growth Hacker",
      titleZh: "增长黑客",
      archetype: "warm_hearted",
      skills: ["experiments", "funnels", "analytics"],
    });
    expect(() => b.call("delete_role_card", { input: { key: "qa" } })).toThrow(expect.objectContaining({ code: "invalid_input" }));
    const edited = b.call("save_role_card", { input: { key: "qa", text: "---\nname: QA lead\ndescription: Owns quality.\ntools: [read_file, browse_web]\n---\n" } });
    expect(edited).toMatchObject({ builtin: false, shipped: true, unknownTools: ["browse_web"] });
    b.call("delete_role_card", { input: { key: "qa" } });
    const cards = b.call("list_role_cards", {});
    expect(Array.isArray(cards) && cards.find((c) => c.key === "qa")).toMatchObject({ builtin: true, card: { name: "QA engineer" } });
  });

  it("previews a roster without writing it, then imports it; an archive's top folder is not part of the keys", async () => {
    const b = new FakeBackend().install();
    const tar = tarOf([
      ["agents-main/marketing/growth-hacker.md", newCardText("en")],
      ["agents-main/README.md", "# Agents\n"],
      ["agents-main/ops/broken.md", "---\nname: Broken\n"],
    ]);
    const gz = new Uint8Array(await new Response(new Response(tar as BodyInit).body!.pipeThrough(new CompressionStream("gzip"))).arrayBuffer());
    const files = [{ name: "agents.tar.gz", base64: btoa(String.fromCharCode(...gz)) }];
    const preview = await b.call("preview_roster", { input: { files } });
    expect(preview).toEqual({
      new: ["marketing/growth-hacker"],
      changed: [],
      unchanged: [],
      unreadable: [{ file: "ops/broken.md", line: 1, key: null, reason: "the header has no closing `---` line" }],
      skipped: ["README.md"],
      unknownTools: [],
      applied: false,
    });
    expect(b.roleCards.map((c) => c.key)).not.toContain("marketing/growth-hacker");
    expect(await b.call("import_roster", { input: { files } })).toMatchObject({ new: ["marketing/growth-hacker"], applied: true });
    expect(await b.call("preview_roster", { input: { files } })).toMatchObject({ new: [], unchanged: ["marketing/growth-hacker"] });
    const exported = b.call("export_role_cards", {});
    expect(exported).toMatchObject({ files: expect.arrayContaining([expect.stringMatching(/\/cubicle-roles-[\d-]+\/marketing\/growth-hacker\.md$/)]) });
  });

  it("reads a zip roster (stored or deflated entries)", async () => {
    const b = new FakeBackend().install();
    const zip = await zipOf([
      ["roster/support/triage.md", "---\nname: Triage\ndescription: Sorts incoming tickets.\n---\nBe kind.\n", false],
      ["roster/support/escalations.md", "---\nname: Escalations\ndescription: Takes the hard tickets.\n---\n", true],
    ]);
    const report = await b.call("import_roster", { input: { files: [{ name: "roster.zip", base64: btoa(String.fromCharCode(...zip)) }] } });
    expect(report).toMatchObject({ new: ["support/escalations", "support/triage"], unreadable: [], applied: true });
    const cards = b.call("list_role_cards", {});
    expect(Array.isArray(cards) && cards.find((c) => c.key === "support/triage")?.card.persona).toBe("Be kind.");
  });

  it("signs in to a company server it can reach, as whom, and the restart opens the company there", () => {
    const b = demo();
    expect(() => b.call("sign_in_to_server", { input: { url: "http://example.com" } })).toThrow(expect.objectContaining({ code: "invalid_input" }));
    expect(() => b.call("sign_in_to_server", { input: { url: "postgres://lin:wrong@" + DEMO_SERVER } })).toThrow(
      expect.objectContaining({ code: "sign_in_refused" }),
    );
    expect(() => b.call("sign_in_to_server", { input: { url: "postgres://lin:lin-secret@db.elsewhere:5432/x" } })).toThrow(
      expect.objectContaining({ code: "sign_in_refused" }),
    );
    expect(b.call("sign_in_to_server", { input: { url: `postgres://lin:lin-secret@${DEMO_SERVER}` } })).toEqual({
      server: DEMO_SERVER,
      company: b.company?.name,
      person: "Lin Chen",
    });
    b.call("restart_app", {});
    expect(b.call("connection", {})).toEqual({ server: DEMO_SERVER, source: "sign_in", signInFailed: null });
    expect(b.call("desk_user", {})).toEqual({ personId: person(b, "Lin Chen"), canChange: false, chosen: true });
    expect(() => b.call("use_desk_as", { input: { personId: null } })).toThrow(expect.objectContaining({ code: "not_your_decision" }));
    b.call("sign_out_of_server", {});
    b.call("restart_app", {});
    expect(b.call("connection", {})).toEqual({ server: null, source: "local", signInFailed: null });
  });

  it("gives a new provider every purpose still on the built-in model", () => {
    const b = new FakeBackend().install();
    b.call("save_provider", {
      input: { id: null, name: "Work", preset: "openai", baseUrl: "https://api.openai.com/v1", defaultModel: "gpt-4.1-mini", models: [], enabled: true },
    });
    expect(b.call("list_builtin_purposes", { input: { providerId: "work" } })).toEqual(["intent", "thought", "summary", "report"]);
    const changed = b.call("use_provider_for_builtin_purposes", { input: { providerId: "work" } });
    expect(Array.isArray(changed) && changed.map((r) => [r.purpose, r.providerId, r.model])).toEqual([
      ["intent", "work", "gpt-4.1-mini"],
      ["thought", "work", "gpt-4.1-mini"],
      ["summary", "work", "gpt-4.1-mini"],
      ["report", "work", "gpt-4.1-mini"],
    ]);
    expect(b.call("list_builtin_purposes", { input: { providerId: "work" } })).toEqual([]);
  });
});

/** A ustar archive of text files (what `tar cf` writes). */
function tarOf(files: Array<[string, string]>): Uint8Array {
  const blocks: Uint8Array[] = [];
  for (const [name, text] of files) {
    const body = new TextEncoder().encode(text);
    const header = new Uint8Array(512);
    const put = (at: number, s: string) => header.set(new TextEncoder().encode(s), at);
    put(0, name);
    put(100, "0000644\0");
    put(124, `${body.length.toString(8).padStart(11, "0")}\0`);
    put(156, "0");
    put(257, "ustar\0");
    put(263, "00");
    blocks.push(header, body, new Uint8Array((512 - (body.length % 512)) % 512));
  }
  blocks.push(new Uint8Array(1024));
  const out = new Uint8Array(blocks.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of blocks) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}

/** A zip archive of text files, each stored or deflated (no CRC: the fake does not check it). */
async function zipOf(files: Array<[string, string, boolean]>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const [name, text, deflate] of files) {
    const raw = new TextEncoder().encode(text);
    const data = deflate ? new Uint8Array(await new Response(new Response(raw as BodyInit).body!.pipeThrough(new CompressionStream("deflate-raw"))).arrayBuffer()) : raw;
    const nameBytes = new TextEncoder().encode(name);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(8, deflate ? 8 : 0, true);
    local.setUint32(18, data.length, true);
    local.setUint32(22, raw.length, true);
    local.setUint16(26, nameBytes.length, true);
    const entry = new DataView(new ArrayBuffer(46));
    entry.setUint32(0, 0x02014b50, true);
    entry.setUint16(10, deflate ? 8 : 0, true);
    entry.setUint32(20, data.length, true);
    entry.setUint32(24, raw.length, true);
    entry.setUint16(28, nameBytes.length, true);
    entry.setUint32(42, offset, true);
    parts.push(new Uint8Array(local.buffer), nameBytes, data);
    central.push(new Uint8Array(entry.buffer), nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const size = central.reduce((n, c) => n + c.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, files.length, true);
  end.setUint16(10, files.length, true);
  end.setUint32(12, size, true);
  end.setUint32(16, offset, true);
  const all = [...parts, ...central, new Uint8Array(end.buffer)];
  const out = new Uint8Array(all.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of all) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
