import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import i18n from "../i18n";
import { Fake } from "../test/fake";
import { emptyOrg, fixedOrg, world } from "../test/fakeFixtures";
import { renderApp } from "../test/render";
import { bundleFileName } from "./bundleFile";

afterEach(() => {
  vi.restoreAllMocks();
});

const DOWNLOADS = "/home/ada/Downloads";

/** What a bundle file holds does not matter to the UI: it passes the text on as it is. */
const BUNDLE = JSON.stringify({ format: "cubicle-company-bundle", schemaVersion: 2, tables: { company: [fixedOrg().company] } });
const sourceBundle = () => BUNDLE;

/** A fresh install whose import reads the bundle in: the company appears on the next get_org. */
function freshInstall() {
  const org = emptyOrg();
  const backend = new Fake(world(org)).on("importCompany", () => {
    Object.assign(org, fixedOrg());
    return { companyName: org.company!.name, employees: org.employees.length, rows: 12 };
  });
  return { backend, org };
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
    const company = fixedOrg().company!;
    const backend = new Fake(world()).on("saveCompanyBundle", (fileName) => ({ path: `${DOWNLOADS}/${fileName}`, bytes: 5_321 }));
    backend.install();
    const { user } = await openSettings();
    const section = screen.getByTestId("settings-section-bundle");
    expect(within(section).getByRole("heading", { name: "Export / import" })).toBeInTheDocument();

    await user.click(within(section).getByTestId("export-company"));
    const path = `${DOWNLOADS}/${bundleFileName(company.name)}`;
    // The backend writes the file (what it holds is tested in Rust); the UI names it and says where it went.
    expect(await within(section).findByTestId("export-done")).toHaveTextContent(new RegExp(`^Saved to ${path} \\(\\d+ KB\\)\\.$`));
    expect(backend.inputsOf("saveCompanyBundle")).toEqual([bundleFileName(company.name)]);
    // The key itself never crosses IPC: the call carries the file name only.
    expect(JSON.stringify(backend.calls)).not.toContain("sk-");
  });

  it("shows the export error and saves nothing when the backend fails", async () => {
    const backend = new Fake(world()).failNext("saveCompanyBundle", "storage", "disk gone");
    backend.install();
    const { user } = await openSettings();
    await user.click(screen.getByTestId("export-company"));
    expect(await screen.findByText("The company data could not be read or saved.")).toBeInTheDocument();
    expect(backend.callsOf("saveCompanyBundle")).toHaveLength(1);
    expect(screen.queryByTestId("export-done")).not.toBeInTheDocument();
  });

  it("keeps import switched off in Settings (there is always a company) and says where to import", async () => {
    new Fake(world()).install();
    await openSettings();
    expect(screen.getByTestId("settings-import-file")).toBeDisabled();
    expect(screen.getByTestId("settings-import-disabled")).toHaveTextContent(/only into an empty Cubicle/);
    expect(screen.getByTestId("settings-import-disabled")).toHaveTextContent("Import a company bundle");
  });

  it("imports a bundle from the first-run screen and opens the company", async () => {
    const { backend } = freshInstall();
    backend.install();
    const { user } = renderApp();
    const wizardImport = await screen.findByTestId("wizard-import");
    expect(within(wizardImport).getByRole("heading", { name: "Or import a company bundle" })).toBeInTheDocument();

    await user.upload(screen.getByTestId("wizard-import-bundle-file"), bundleFile(sourceBundle()));
    // The file's text goes to the backend exactly as read.
    await waitFor(() => expect(backend.inputsOf("importCompany")).toEqual([BUNDLE]));
    expect(backend.callsOf("setupCompany")).toHaveLength(0);
    const company = fixedOrg().company!;
    expect(await screen.findByTestId("company-name")).toHaveTextContent(company.name);
  });

  it("says clearly when a file is not a bundle, or from a newer Cubicle, and stays on the first-run screen", async () => {
    const { backend, org } = freshInstall();
    backend.install();
    const { user } = renderApp();
    const input = await screen.findByTestId("wizard-import-bundle-file");
    const good = sourceBundle();

    backend.failNext("importCompany", "bundle_invalid", "this is not a Cubicle company bundle: not valid JSON");
    await user.upload(input, bundleFile(good.slice(0, good.length / 2), "half.json"));
    expect(await screen.findByText(/not a valid company bundle/)).toBeInTheDocument();

    backend.failNext("importCompany", "bundle_too_new", "schema version 3; this version reads up to 2");
    await user.upload(input, bundleFile(good, "newer.json"));
    expect(await screen.findByText("This bundle was made by a newer Cubicle. Update Cubicle, then import it.")).toBeInTheDocument();
    expect(backend.callsOf("importCompany")).toHaveLength(2);
    expect(org.company).toBeNull();
    expect(screen.getByTestId("wizard-company-name")).toBeInTheDocument();
  });

  it("shows the importing state while the bundle is read in", async () => {
    const { backend } = freshInstall();
    let release!: () => void;
    backend.hold("importCompany", new Promise<void>((r) => (release = r)));
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
    freshInstall().backend.install();
    renderApp();
    expect(await screen.findByRole("heading", { name: "或者：导入公司数据包" })).toBeInTheDocument();
    expect(screen.getByText("选择数据包文件…")).toBeInTheDocument();
  });
});

describe("importing into a Cubicle that is not empty", () => {
  it("says the backend refused (database_not_empty) and stays on the first-run screen", async () => {
    const { backend, org } = freshInstall();
    backend.failNext("importCompany", "database_not_empty", "the database is not empty (company: 1)");
    backend.install();
    const { user } = renderApp();
    await user.upload(await screen.findByTestId("wizard-import-bundle-file"), bundleFile(sourceBundle()));
    expect(await screen.findByText(/A bundle is imported only into an empty one/)).toBeInTheDocument();
    expect(backend.inputsOf("importCompany")).toEqual([BUNDLE]);
    expect(org.company).toBeNull();
    expect(screen.getByTestId("wizard-company-name")).toBeInTheDocument();
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
