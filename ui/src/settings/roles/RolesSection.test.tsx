import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { RoleCardDto } from "../../bindings/RoleCardDto";
import type { RoleImport } from "../../bindings/RoleImport";
import i18n from "../../i18n";
import { Fake } from "../../test/fake";
import { company, fixedOrg, world } from "../../test/fakeFixtures";
import { renderApp } from "../../test/render";

const QA_TEXT = "---\nname: QA Engineer\nname_zh: 测试工程师\ndescription: Finds what breaks before users do.\ntools: [read_file]\ntemperature: 0.2\n---\n";
const GROWTH_TEXT =
  "---\nname: Growth Hacker\ndescription: Runs cheap experiments that bring users.\ntools: [read_file, WebSearch]\nmodel: deepseek/deepseek-chat\ntemperature: 0.7\n---\nYou run experiments.\n";

function dto(key: string, builtin: boolean, text: string, patch: Partial<RoleCardDto["card"]>, unknownTools: string[] = []): RoleCardDto {
  return {
    key,
    builtin,
    shipped: builtin,
    text,
    unknownTools,
    card: {
      name: "",
      nameZh: null,
      description: "",
      tools: [],
      model: null,
      temperature: null,
      maxRetries: null,
      language: null,
      archetype: null,
      skills: [],
      skillsZh: [],
      otherKeys: [],
      persona: "",
      ...patch,
    },
  };
}

const qa = () => dto("qa_engineer", true, QA_TEXT, { name: "QA Engineer", nameZh: "测试工程师", description: "Finds what breaks before users do.", tools: ["read_file"], temperature: 0.2 });
const growth = () =>
  dto(
    "marketing/growth-hacker",
    false,
    GROWTH_TEXT,
    { name: "Growth Hacker", description: "Runs cheap experiments that bring users.", tools: ["read_file", "WebSearch"], model: "deepseek/deepseek-chat", temperature: 0.7 },
    ["WebSearch"],
  );

const PREVIEW: RoleImport = {
  new: ["marketing/growth-hacker", "research/market-researcher"],
  changed: ["engineering/code-reviewer"],
  unchanged: [],
  unreadable: [{ file: "support/broken-card.md", line: 4, key: "temperature", reason: '"warm" is not a number' }],
  skipped: ["README.md"],
  unknownTools: [{ key: "marketing/growth-hacker", tools: ["WebSearch"] }],
  applied: false,
};

/** The library as the backend holds it: each command stores what the UI sent (the card rules are core's, tested in Rust). */
function rolesServer(cards: RoleCardDto[], zh = false) {
  const stored = { cards: structuredClone(cards) };
  const org = zh ? { ...fixedOrg(), company: company({ language: "zh-CN" }) } : fixedOrg();
  const backend = new Fake(world(org))
    .on("listRoleCards", () => stored.cards)
    .on("saveRoleCard", ({ key, text }) => {
      const saved = dto(key, false, text, { name: key, description: "saved" });
      stored.cards = [...stored.cards.filter((c) => c.key !== key), saved];
      return saved;
    })
    .on("deleteRoleCard", ({ key }) => {
      stored.cards = stored.cards.filter((c) => c.key !== key);
      return null;
    })
    .on("previewRoster", () => PREVIEW)
    .on("importRoster", () => {
      stored.cards = [...stored.cards, growth()];
      return { ...PREVIEW, applied: true };
    });
  return { backend, stored };
}

async function openRoles(server: ReturnType<typeof rolesServer>) {
  server.backend.install();
  window.history.replaceState(null, "", "#settings/roles");
  const rendered = renderApp();
  const section = await screen.findByTestId("settings-section-roles");
  await within(section).findByTestId("roles-builtin");
  return { ...rendered, ...server, section };
}

afterEach(async () => {
  window.history.replaceState(null, "", "#");
  await i18n.changeLanguage("en");
});

describe("role cards in settings", () => {
  it("lists the boss's cards, then the built-in ones, with temperature, model, tools and tools never granted", async () => {
    const { section } = await openRoles(rolesServer([qa(), growth()]));
    const own = within(section).getByTestId("role-marketing/growth-hacker");
    expect(within(section).getByTestId("roles-own")).toContainElement(own);
    expect(own).toHaveTextContent("Growth Hacker");
    expect(own).toHaveTextContent("temperature 0.7");
    expect(own).toHaveTextContent("deepseek/deepseek-chat");
    expect(own).toHaveTextContent("2 tools");
    expect(within(section).getByTestId("role-marketing/growth-hacker-unknown")).toHaveTextContent("never granted): WebSearch");
    const builtin = within(within(section).getByTestId("roles-builtin")).getByTestId("role-qa_engineer");
    expect(builtin).toHaveTextContent("QA Engineer");
    // A built-in card is edited or copied, never deleted.
    expect(within(builtin).queryByRole("button", { name: /Delete/ })).not.toBeInTheDocument();
    expect(within(own).getByRole("button", { name: "Delete the card Growth Hacker" })).toBeInTheDocument();
  });

  it("says when the boss has no cards yet, and shows Chinese names in Chinese", async () => {
    const { section } = await openRoles(rolesServer([qa()], true));
    await waitFor(() => expect(i18n.language).toBe("zh-CN"));
    expect(within(section).getByRole("heading", { name: "角色卡" })).toBeInTheDocument();
    expect(within(section).getByTestId("roles-own-empty")).toHaveTextContent("还没有你自己的卡片");
    expect(within(section).getByTestId("role-qa_engineer")).toHaveTextContent("测试工程师");
    expect(within(section).getByTestId("role-qa_engineer")).toHaveTextContent("温度 0.2");
  });

  it("filters the cards by name, key, description or skill", async () => {
    const { user, section } = await openRoles(rolesServer([qa(), growth()]));
    await user.type(within(section).getByTestId("roles-filter"), "experiments");
    expect(within(section).getByTestId("role-marketing/growth-hacker")).toBeInTheDocument();
    expect(within(section).queryByTestId("role-qa_engineer")).not.toBeInTheDocument();
  });

  it("edits a card's whole text and shows where a refused card is wrong", async () => {
    const { user, backend, section } = await openRoles(rolesServer([qa(), growth()]));
    await user.click(within(section).getByRole("button", { name: "Edit the card Growth Hacker" }));
    const dialog = await screen.findByTestId("role-card-dialog");
    const text = within(dialog).getByTestId("role-card-text");
    expect(text).toHaveValue(GROWTH_TEXT);
    await user.clear(text);
    await user.type(text, "---\nname: Growth Hacker\ndescription: x\ntemperature: warm\n---\n");
    backend.failNext("saveRoleCard", "invalid_input", 'marketing/growth-hacker.md:4 (temperature): "warm" is not a number');
    await user.click(within(dialog).getByTestId("role-card-save"));
    expect(await within(dialog).findByTestId("role-card-refusal")).toHaveTextContent('Where: marketing/growth-hacker.md:4 (temperature): "warm" is not a number');
    // Fixed and saved: the dialog closes and the card's text went as typed.
    await user.clear(text);
    await user.type(text, "---\nname: Growth Hacker\ndescription: x\ntemperature: 0.5\n---\n");
    await user.click(within(dialog).getByTestId("role-card-save"));
    await waitFor(() => expect(screen.queryByTestId("role-card-dialog")).not.toBeInTheDocument());
    expect(backend.inputsOf("saveRoleCard").at(-1)).toEqual({
      key: "marketing/growth-hacker",
      text: "---\nname: Growth Hacker\ndescription: x\ntemperature: 0.5\n---\n",
    });
  });

  it("refuses a new card's key that is not words and folders without asking the backend", async () => {
    const { user, backend, section } = await openRoles(rolesServer([qa()]));
    await user.click(within(section).getByTestId("roles-new"));
    const dialog = await screen.findByTestId("role-card-dialog");
    expect((within(dialog).getByTestId("role-card-text") as HTMLTextAreaElement).value).toContain("name: Growth Hacker");
    await user.type(within(dialog).getByTestId("role-card-key"), "../escape");
    await user.click(within(dialog).getByTestId("role-card-save"));
    expect(await within(dialog).findByText(/A key is words and folders/)).toBeInTheDocument();
    expect(backend.callsOf("saveRoleCard")).toHaveLength(0);
  });

  it("previews a picked roster archive, then imports it on confirmation", async () => {
    const { user, backend, section } = await openRoles(rolesServer([qa()]));
    const archive = new File([new Uint8Array([0x50, 0x4b, 0x05, 0x06, 0, 0])], "roster.zip", { type: "application/zip" });
    await user.upload(within(section).getByTestId("roles-import-input"), archive);
    const dialog = await screen.findByTestId("roster-import-dialog");
    await waitFor(() => expect(backend.inputsOf("previewRoster")).toEqual([{ files: [{ name: "roster.zip", base64: "UEsFBgAA" }] }]));
    expect(await within(dialog).findByTestId("roster-count-new")).toHaveTextContent("2");
    expect(within(dialog).getByTestId("roster-count-changed")).toHaveTextContent("1");
    expect(within(dialog).getByTestId("roster-unreadable")).toHaveTextContent('support/broken-card.md:4 (temperature): "warm" is not a number');
    expect(within(dialog).getByTestId("roster-unknown-tools")).toHaveTextContent("marketing/growth-hacker: WebSearch");
    expect(within(dialog).getByText(/README.md/)).toBeInTheDocument();
    expect(backend.callsOf("importRoster")).toHaveLength(0);

    await user.click(within(dialog).getByTestId("roster-import-confirm"));
    expect(await within(dialog).findByTestId("roster-imported")).toHaveTextContent("Imported: 2 new, 1 changed.");
    expect(backend.inputsOf("importRoster")).toEqual(backend.inputsOf("previewRoster"));
    expect(await within(section).findByTestId("role-marketing/growth-hacker")).toBeInTheDocument();
  });

  it("says why a roster is refused and imports nothing", async () => {
    const server = rolesServer([qa()]);
    server.backend.failNext("previewRoster", "invalid_input", 'evil.zip: the entry "../x.md" points outside the roster; nothing was imported');
    const { user, backend, section } = await openRoles(server);
    await user.upload(within(section).getByTestId("roles-import-input"), new File(["PK"], "evil.zip"));
    const dialog = await screen.findByTestId("roster-import-dialog");
    expect(await within(dialog).findByTestId("roster-refusal")).toHaveTextContent("points outside the roster");
    expect(within(dialog).getByTestId("roster-import-confirm")).toBeDisabled();
    expect(backend.callsOf("importRoster")).toHaveLength(0);
  });

  it("deletes one of the boss's cards after asking", async () => {
    const { user, backend, section } = await openRoles(rolesServer([qa(), growth()]));
    await user.click(within(section).getByRole("button", { name: "Delete the card Growth Hacker" }));
    await user.click(await screen.findByTestId("delete-role-confirm"));
    await waitFor(() => expect(backend.inputsOf("deleteRoleCard")).toEqual([{ key: "marketing/growth-hacker" }]));
    expect(await within(section).findByTestId("roles-own-empty")).toBeInTheDocument();
  });

  it("exports the cards and says where they went", async () => {
    const server = rolesServer([qa()]);
    server.backend.on("exportRoleCards", () => ({ dir: "/home/ada/Downloads/cubicle-roles-2026-12-03-120000", files: ["qa_engineer.md"] }));
    const { user, section } = await openRoles(server);
    await user.click(within(section).getByTestId("roles-export"));
    expect(await within(section).findByTestId("roles-exported")).toHaveTextContent("Saved 1 card to /home/ada/Downloads/cubicle-roles-2026-12-03-120000.");
  });
});
