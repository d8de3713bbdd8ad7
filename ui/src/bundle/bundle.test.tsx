import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import i18n from "../i18n";
import { FakeBackend } from "../test/fakeBackend";
import { BUNDLE_SCHEMA_VERSION, FAKE_DOWNLOADS, exportBundle, importBundle } from "../test/fakeBundle";
import { fixedOrg, provider } from "../test/fakeFixtures";
import { renderApp } from "../test/render";
import { bundleFileName } from "./bundleFile";

afterEach(() => {
  vi.restoreAllMocks();
});

/** A company with people and a provider whose key is set, exported by another fake Cubicle. */
function sourceBundle(): string {
  const source = new FakeBackend(fixedOrg());
  source.providers.push(provider("openai", { hasKey: true, keySource: "keychain" }));
  return exportBundle(source);
}

const bundleFile = (text: string, name = "acme.json") => new File([text], name, { type: "application/json" });

async function openSettings() {
  const rendered = renderApp();
  await rendered.user.click(await screen.findByTestId("nav-settings"));
  await screen.findByTestId("settings-page");
  return rendered;
}

describe("export / import", () => {
  it("exports the company from Settings as a JSON file with no key in it", async () => {
    const backend = new FakeBackend(fixedOrg());
    backend.providers.push(provider("openai", { hasKey: true, keySource: "keychain" }));
    backend.install();
    const { user } = await openSettings();
    const section = screen.getByTestId("settings-section-bundle");
    expect(within(section).getByRole("heading", { name: "Export / import" })).toBeInTheDocument();

    await user.click(within(section).getByTestId("export-company"));
    const company = backend.company!;
    const path = `${FAKE_DOWNLOADS}/${bundleFileName(company.name)}`;
    expect(await within(section).findByTestId("export-done")).toHaveTextContent(new RegExp(`^Saved to ${path} \\(\\d+ KB\\)\\.$`));
    expect(backend.callsOf("save_company_bundle").map((c) => c.args)).toEqual([{ fileName: bundleFileName(company.name) }]);
    expect(backend.savedBundles).toHaveLength(1);
    const file = backend.savedBundles[0]!;
    expect(file.path).toBe(path);
    const doc = JSON.parse(file.text) as Record<string, unknown>;
    expect(doc.schemaVersion).toBe(BUNDLE_SCHEMA_VERSION);
    expect(file.text).toContain(company.name);
    expect(file.text).toContain('"openai"');
    expect(file.text).not.toContain('"hasKey": true');
  });

  it("shows the export error and saves nothing when the backend fails", async () => {
    const backend = new FakeBackend(fixedOrg());
    backend.failures.set("save_company_bundle", { code: "storage", message: "disk gone" });
    backend.install();
    const { user } = await openSettings();
    await user.click(screen.getByTestId("export-company"));
    expect(await screen.findByText("The company data could not be read or saved.")).toBeInTheDocument();
    expect(backend.savedBundles).toHaveLength(0);
  });

  it("keeps import switched off in Settings (there is always a company) and says where to import", async () => {
    new FakeBackend(fixedOrg()).install();
    await openSettings();
    expect(screen.getByTestId("settings-import-file")).toBeDisabled();
    expect(screen.getByTestId("settings-import-disabled")).toHaveTextContent(/only into an empty Cubicle/);
    expect(screen.getByTestId("settings-import-disabled")).toHaveTextContent("Import a company bundle");
  });

  it("imports a bundle from the first-run screen and opens the company", async () => {
    const backend = new FakeBackend().install();
    const { user } = renderApp();
    const wizardImport = await screen.findByTestId("wizard-import");
    expect(within(wizardImport).getByRole("heading", { name: "Or import a company bundle" })).toBeInTheDocument();

    await user.upload(screen.getByTestId("wizard-import-bundle-file"), bundleFile(sourceBundle()));
    await waitFor(() => expect(backend.callsOf("import_company")).toHaveLength(1));
    expect(backend.callsOf("setup_company")).toHaveLength(0);
    const company = fixedOrg().company!;
    expect(await screen.findByTestId("company-name")).toHaveTextContent(company.name);
    expect(backend.employees).toHaveLength(fixedOrg().employees.length);
    expect(backend.providers.find((p) => p.id === "openai")?.hasKey).toBe(false);
  });

  it("says clearly when a file is not a bundle, or from a newer Cubicle, and stays on the first-run screen", async () => {
    const backend = new FakeBackend().install();
    const { user } = renderApp();
    const input = await screen.findByTestId("wizard-import-bundle-file");
    const good = sourceBundle();

    await user.upload(input, bundleFile(good.slice(0, good.length / 2), "half.json"));
    expect(await screen.findByText(/not a valid company bundle/)).toBeInTheDocument();

    const newer = JSON.stringify({ ...JSON.parse(good), schemaVersion: BUNDLE_SCHEMA_VERSION + 1 });
    await user.upload(input, bundleFile(newer, "newer.json"));
    expect(await screen.findByText("This bundle was made by a newer Cubicle. Update Cubicle, then import it.")).toBeInTheDocument();
    expect(backend.company).toBeNull();
    expect(screen.getByTestId("wizard-company-name")).toBeInTheDocument();
  });

  it("shows the importing state while the bundle is read in", async () => {
    const backend = new FakeBackend();
    let release!: () => void;
    backend.gates.set("import_company", new Promise<void>((r) => (release = r)));
    backend.install();
    const { user } = renderApp();
    await user.upload(await screen.findByTestId("wizard-import-bundle-file"), bundleFile(sourceBundle()));
    expect(await screen.findByText("Importing…")).toBeInTheDocument();
    expect(screen.getByTestId("wizard-import-bundle-file")).toBeDisabled();
    release();
    expect(await screen.findByTestId("company-name")).toBeInTheDocument();
  });

  it("is in Chinese too", async () => {
    await i18n.changeLanguage("zh-CN");
    new FakeBackend().install();
    renderApp();
    expect(await screen.findByRole("heading", { name: "或者：导入公司数据包" })).toBeInTheDocument();
    expect(screen.getByText("选择数据包文件…")).toBeInTheDocument();
  });
});

describe("the fake's bundle rules (as on the Rust side)", () => {
  it("refuses a busy company and changes nothing", () => {
    const busy = new FakeBackend(fixedOrg());
    const before = JSON.stringify(busy.snapshot());
    expect(() => importBundle(busy, sourceBundle())).toThrow(expect.objectContaining({ code: "database_not_empty" }));
    expect(JSON.stringify(busy.snapshot())).toBe(before);
  });
});

describe("bundle file names", () => {
  it("are file-safe and dated", () => {
    const day = new Date("2026-11-30T10:00:00Z");
    expect(bundleFileName("Northwind Labs!", day)).toBe("cubicle-northwind-labs-2026-11-30.json");
    expect(bundleFileName("北风实验室", day)).toBe("cubicle-北风实验室-2026-11-30.json");
    expect(bundleFileName("   ", day)).toBe("cubicle-company-2026-11-30.json");
  });
});
