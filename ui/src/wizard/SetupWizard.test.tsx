import { screen, waitFor, within } from "@testing-library/react";
import type { UserEvent } from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import i18n from "../i18n";
import { Fake } from "../test/fake";
import { company, emptyOrg, world } from "../test/fakeFixtures";
import { renderApp } from "../test/render";

/** Fills the first step and goes on to the choice of model. */
async function toThinkingStep(user: UserEvent, company: string, boss: string) {
  await user.type(await screen.findByTestId("wizard-company-name"), company);
  await user.type(screen.getByTestId("wizard-boss-name"), boss);
  await user.click(screen.getByTestId("wizard-next"));
  return screen.findByTestId("wizard-path-builtin");
}

/** No company yet; setting one up makes it the company the next get_org answers. */
function firstRun() {
  const org = emptyOrg();
  return new Fake(world(org))
    .on("setupCompany", ({ name, bossName, language, mission }) => (org.company = company({ name, bossName, language, mission: mission ?? "" })))
    .install();
}

const radio = (path: string) => within(screen.getByTestId(`wizard-path-${path}`)).getByRole("radio");

describe("first-run wizard", () => {
  it("is shown when there is no company", async () => {
    firstRun();
    renderApp();
    expect(await screen.findByTestId("wizard-company-name")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Set up your company" })).toBeInTheDocument();
    expect(screen.getByTestId("wizard-step")).toHaveTextContent("Step 1 of 2");
  });

  it("refuses empty names, stays on the first step and does not call the backend", async () => {
    const backend = firstRun();
    const { user } = renderApp();
    await user.click(await screen.findByTestId("wizard-next"));
    expect(screen.getByText("Enter a company name.")).toBeInTheDocument();
    expect(screen.getByText("Enter your name.")).toBeInTheDocument();
    expect(screen.getByTestId("wizard-company-name")).toHaveAttribute("aria-invalid", "true");

    await user.type(screen.getByTestId("wizard-company-name"), "   ");
    await user.type(screen.getByTestId("wizard-boss-name"), "Ada");
    await user.click(screen.getByTestId("wizard-next"));
    expect(screen.getByText("Enter a company name.")).toBeInTheDocument();
    expect(screen.queryByText("Enter your name.")).not.toBeInTheDocument();
    expect(screen.queryByTestId("wizard-path-builtin")).not.toBeInTheDocument();
    expect(backend.callsOf("setupCompany")).toHaveLength(0);
  });

  it("offers three ways to think, each with one honest line, the built-in model chosen for an English company", async () => {
    const backend = firstRun();
    const { user } = renderApp();
    await toThinkingStep(user, "Northwind Labs", "Ada");
    expect(screen.getByRole("heading", { name: "How should your employees think?" })).toBeInTheDocument();
    expect(screen.getByTestId("wizard-step")).toHaveTextContent("Step 2 of 2");
    expect(screen.getAllByRole("radio")).toHaveLength(3);

    const builtin = radio("builtin");
    expect(builtin).toHaveAccessibleName(/Built-in model/);
    expect(builtin).toHaveAccessibleDescription(
      "Offline, private and free, but limited: a small 0.5B model (Qwen2.5-Coder) that carries short, simple steps in English and Chinese, with weak judgement.",
    );
    expect(radio("download")).toHaveAccessibleName(/Download a better local model/);
    expect(radio("download")).toHaveAccessibleDescription(/Still offline, private and free, and far more capable/);
    expect(radio("provider")).toHaveAccessibleName(/Use a provider key/);
    expect(radio("provider")).toHaveAccessibleDescription(/needs the internet, and every thought is billed to your key/);

    // Nothing is recommended over the rest for English, and the Chinese advice is not shown.
    expect(builtin).toBeChecked();
    expect(screen.queryByTestId("wizard-recommended")).not.toBeInTheDocument();
    expect(screen.queryByTestId("wizard-zh-advice")).not.toBeInTheDocument();
    expect(screen.getByTestId("wizard-path-next")).toHaveTextContent("Your company starts on the built-in model right away.");
    // Choosing a path only says what comes next: nothing is created until the boss confirms.
    await user.click(radio("provider"));
    expect(screen.getByTestId("wizard-path-next")).toHaveTextContent("Settings opens so you can add your provider and its key");
    expect(backend.callsOf("setupCompany")).toHaveLength(0);
  });

  it("creates the company on the built-in model and opens it on the secretary", async () => {
    const backend = firstRun();
    const { user } = renderApp();
    await user.type(await screen.findByTestId("wizard-company-name"), "  Northwind Labs ");
    await user.type(screen.getByTestId("wizard-boss-name"), "Ada Lovelace");
    await user.type(screen.getByLabelText(/Mission/), "Build helpful robots");
    await user.click(screen.getByTestId("wizard-next"));
    await user.click(await screen.findByTestId("wizard-submit"));

    await waitFor(() => expect(backend.callsOf("setupCompany")).toHaveLength(1));
    expect(backend.inputsOf("setupCompany")[0]).toEqual({
      name: "Northwind Labs",
      bossName: "Ada Lovelace",
      language: "en",
      mission: "Build helpful robots",
    });
    expect(await screen.findByTestId("company-name")).toHaveTextContent("Northwind Labs");
    expect(screen.getByTestId("boss-name")).toHaveTextContent("Ada Lovelace");
    // A new company opens on the secretary, with nothing said yet.
    expect(await screen.findByTestId("secretary-empty")).toBeInTheDocument();
    expect(screen.getByTestId("nav-secretary")).toHaveAttribute("aria-current", "page");
  });

  it("keeps what was typed when going back from the second step", async () => {
    firstRun();
    const { user } = renderApp();
    await toThinkingStep(user, "Acme", "Ada");
    await user.click(radio("download"));
    await user.click(screen.getByTestId("wizard-back"));
    expect(screen.getByTestId("wizard-company-name")).toHaveValue("Acme");
    expect(screen.getByTestId("wizard-boss-name")).toHaveValue("Ada");
    await user.click(screen.getByTestId("wizard-next"));
    expect(radio("download")).toBeChecked();
  });

  it("recommends a Chinese-capable local model to a Chinese company, then opens Settings on local models", async () => {
    const backend = firstRun();
    const { user } = renderApp();
    await user.selectOptions(await screen.findByTestId("wizard-language"), "zh-CN");
    expect(await screen.findByRole("heading", { name: "创建你的公司" })).toBeInTheDocument();
    expect(i18n.language).toBe("zh-CN");

    await user.click(screen.getByTestId("wizard-next"));
    expect(screen.getByText("请输入公司名称。")).toBeInTheDocument();

    await toThinkingStep(user, "北风实验室", "王小明");
    expect(screen.getByRole("heading", { name: "员工用什么模型思考？" })).toBeInTheDocument();
    expect(screen.getByTestId("wizard-zh-advice")).toHaveTextContent(
      "内置模型（Qwen2.5-Coder 0.5B）能写通顺的中文，但只适合简短、简单的工作。需要更多时，可下载更大的本地模型（例如 Qwen2.5 1.5B Instruct），或添加服务商。",
    );
    expect(within(screen.getByTestId("wizard-path-download")).getByTestId("wizard-recommended")).toHaveTextContent("推荐");
    expect(screen.getAllByTestId("wizard-recommended")).toHaveLength(1);
    expect(radio("download")).toBeChecked();
    expect(radio("builtin")).toHaveAccessibleDescription(/能用中英文完成简短、简单的步骤/);

    await user.click(screen.getByTestId("wizard-submit"));
    await waitFor(() => expect(backend.callsOf("setupCompany")).toHaveLength(1));
    expect(backend.inputsOf("setupCompany")[0]).toEqual({
      name: "北风实验室",
      bossName: "王小明",
      language: "zh-CN",
      mission: null,
    });
    expect(await screen.findByTestId("settings-page")).toBeInTheDocument();
    expect(window.location.hash).toBe("#settings/local-models");
    expect(screen.getByRole("link", { name: /组织架构/ })).toBeInTheDocument();
  });

  it("lets a Chinese company keep the built-in model all the same", async () => {
    const backend = firstRun();
    const { user } = renderApp();
    await user.selectOptions(await screen.findByTestId("wizard-language"), "zh-CN");
    await toThinkingStep(user, "北风实验室", "王小明");
    await user.click(radio("builtin"));
    await user.click(screen.getByTestId("wizard-submit"));
    await waitFor(() => expect(backend.callsOf("setupCompany")).toHaveLength(1));
    expect(await screen.findByTestId("secretary-empty")).toBeInTheDocument();
    expect(window.location.hash).toBe("");
  });

  it("opens Settings with the add-provider dialog for a provider key", async () => {
    const backend = firstRun();
    const { user } = renderApp();
    await toThinkingStep(user, "Acme", "Ada");
    await user.click(radio("provider"));
    await user.click(screen.getByTestId("wizard-submit"));
    await waitFor(() => expect(backend.callsOf("setupCompany")).toHaveLength(1));
    const dialog = await screen.findByRole("dialog", { name: "Add a model provider" });
    expect(within(dialog).getByTestId("provider-preset-select")).toBeInTheDocument();
    expect(screen.getByTestId("settings-page")).toBeInTheDocument();
    expect(window.location.hash).toBe("#settings/add-provider");
  });

  it("shows the backend's error in the user's language and stays on the choice", async () => {
    const backend = firstRun();
    backend.failNext("setupCompany", "storage", "disk full");
    const { user } = renderApp();
    await toThinkingStep(user, "Acme", "Ada");
    await user.click(radio("download"));
    await user.click(screen.getByTestId("wizard-submit"));
    expect(await screen.findByText("The company data could not be read or saved.")).toBeInTheDocument();
    expect(radio("download")).toBeChecked();
    // Nowhere to go: the company does not exist.
    expect(window.location.hash).toBe("");
    await user.click(screen.getByTestId("wizard-submit"));
    await waitFor(() => expect(backend.callsOf("setupCompany")).toHaveLength(2));
    expect(await screen.findByTestId("settings-page")).toBeInTheDocument();
  });
});
