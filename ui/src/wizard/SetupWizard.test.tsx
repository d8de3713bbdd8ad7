import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import i18n from "../i18n";
import { FakeBackend } from "../test/fakeBackend";
import { renderApp } from "../test/render";

describe("first-run wizard", () => {
  it("is shown when there is no company", async () => {
    new FakeBackend().install();
    renderApp();
    expect(await screen.findByTestId("wizard-company-name")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Set up your company" })).toBeInTheDocument();
  });

  it("refuses empty names and does not call the backend", async () => {
    const backend = new FakeBackend().install();
    const { user } = renderApp();
    await user.click(await screen.findByTestId("wizard-submit"));
    expect(screen.getByText("Enter a company name.")).toBeInTheDocument();
    expect(screen.getByText("Enter your name.")).toBeInTheDocument();
    expect(screen.getByTestId("wizard-company-name")).toHaveAttribute("aria-invalid", "true");

    await user.type(screen.getByTestId("wizard-company-name"), "   ");
    await user.type(screen.getByTestId("wizard-boss-name"), "Ada");
    await user.click(screen.getByTestId("wizard-submit"));
    expect(screen.getByText("Enter a company name.")).toBeInTheDocument();
    expect(screen.queryByText("Enter your name.")).not.toBeInTheDocument();
    expect(backend.callsOf("setup_company")).toHaveLength(0);
  });

  it("submits setup_company with the right payload and then opens the company", async () => {
    const backend = new FakeBackend().install();
    const { user } = renderApp();
    await user.type(await screen.findByTestId("wizard-company-name"), "  Northwind Labs ");
    await user.type(screen.getByTestId("wizard-boss-name"), "Ada Lovelace");
    await user.type(screen.getByLabelText(/Mission/), "Build helpful robots");
    await user.click(screen.getByTestId("wizard-submit"));

    await waitFor(() => expect(backend.callsOf("setup_company")).toHaveLength(1));
    expect(backend.inputsOf("setup_company")[0]).toEqual({
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

  it("switches to Chinese when that language is chosen, and sends it with a null mission", async () => {
    const backend = new FakeBackend().install();
    const { user } = renderApp();
    await user.selectOptions(await screen.findByTestId("wizard-language"), "zh-CN");
    expect(await screen.findByRole("heading", { name: "创建你的公司" })).toBeInTheDocument();
    expect(i18n.language).toBe("zh-CN");

    await user.click(screen.getByTestId("wizard-submit"));
    expect(screen.getByText("请输入公司名称。")).toBeInTheDocument();

    await user.type(screen.getByTestId("wizard-company-name"), "北风实验室");
    await user.type(screen.getByTestId("wizard-boss-name"), "王小明");
    await user.click(screen.getByTestId("wizard-submit"));
    await waitFor(() => expect(backend.callsOf("setup_company")).toHaveLength(1));
    expect(backend.inputsOf("setup_company")[0]).toEqual({
      name: "北风实验室",
      bossName: "王小明",
      language: "zh-CN",
      mission: null,
    });
    expect(await screen.findByRole("link", { name: /组织架构/ })).toBeInTheDocument();
  });

  it("shows the backend's error in the user's language", async () => {
    const backend = new FakeBackend().install();
    backend.failures.set("setup_company", { code: "storage", message: "disk full" });
    const { user } = renderApp();
    await user.type(await screen.findByTestId("wizard-company-name"), "Acme");
    await user.type(screen.getByTestId("wizard-boss-name"), "Ada");
    await user.click(screen.getByTestId("wizard-submit"));
    expect(await screen.findByText("The company data could not be read or saved.")).toBeInTheDocument();
    expect(screen.getByTestId("wizard-company-name")).toBeInTheDocument();
  });
});
