// Company bundles in the in-memory Cubicle (see fakeBackend.ts), with the Rust side's rules
// (crates/core/src/bundle.rs): export is one JSON document with `format`, `schemaVersion` and the
// company's tables, never a key; import needs an empty company (`database_not_empty`), refuses what is
// not a bundle (`bundle_invalid`) or comes from a newer Cubicle (`bundle_too_new`), and is all or nothing.
// The fake keeps its tables as the DTOs it already holds (company, departments, employees, providers).
import type { CompanyDto } from "../../bindings/CompanyDto";
import type { ConfirmImported } from "../../bindings/ConfirmImported";
import type { DepartmentDto } from "../../bindings/DepartmentDto";
import type { EmployeeDto } from "../../bindings/EmployeeDto";
import type { ErrorCode } from "../../bindings/ErrorCode";
import type { ImportReport } from "../../bindings/ImportReport";
import type { ImportedToConfirm } from "../../bindings/ImportedToConfirm";
import type { IpcError } from "../../bindings/IpcError";
import type { ProviderDto } from "../../bindings/ProviderDto";
import type { SavedBundle } from "../../bindings/SavedBundle";
import type { CommandPart } from "./commandTable";

/** As on the Rust side (bundle::SCHEMA_VERSION, bundle::FORMAT). */
export const BUNDLE_SCHEMA_VERSION = 2;
export const BUNDLE_FORMAT = "cubicle-company-bundle";

/** What of the fake backend a bundle reads and writes. */
export interface BundleHost {
  company: CompanyDto | null;
  departments: DepartmentDto[];
  employees: EmployeeDto[];
  providers: ProviderDto[];
  /** What `save_company_bundle` wrote, as the real app would to the Downloads folder. */
  savedBundles: { path: string; text: string }[];
  /** CLI commands as a bundle brought them, by employee id: unconfirmed while unchanged. */
  importedCli: Map<number, string>;
  emit(
    event: { type: "company_updated"; companyId: number } | { type: "providers_changed" } | { type: "employee_updated"; employeeId: number },
  ): void;
}

/** The fake user's Downloads folder. */
export const FAKE_DOWNLOADS = "/home/ada/Downloads";

interface FakeTables {
  company: CompanyDto[];
  department: DepartmentDto[];
  employee: EmployeeDto[];
  provider: ProviderDto[];
}

const fail = (code: ErrorCode, message: string): never => {
  const error: IpcError = { code, message };
  throw error;
};

export function exportBundle(host: BundleHost, now = new Date()): string {
  const tables: FakeTables = {
    company: host.company ? [host.company] : [],
    department: host.departments,
    employee: host.employees,
    // Like the provider table: no key, and the built-in model is not a row.
    provider: host.providers.filter((p) => !p.builtin).map((p) => ({ ...p, hasKey: false, keySource: "none" })),
  };
  return JSON.stringify(
    { format: BUNDLE_FORMAT, schemaVersion: BUNDLE_SCHEMA_VERSION, exportedAt: now.toISOString(), appVersion: "0.1.0", tables },
    null,
    2,
  );
}

function parseBundle(json: string): FakeTables {
  let doc: unknown;
  try {
    doc = JSON.parse(json);
  } catch (e) {
    return fail("bundle_invalid", `this is not a Cubicle company bundle: not valid JSON (${String(e)})`);
  }
  if (typeof doc !== "object" || doc === null) return fail("bundle_invalid", "the document is not a JSON object");
  const d = doc as Record<string, unknown>;
  if (d.format !== BUNDLE_FORMAT) return fail("bundle_invalid", `"format" is not "${BUNDLE_FORMAT}"`);
  if (typeof d.schemaVersion !== "number") return fail("bundle_invalid", 'no "schemaVersion" number');
  if (d.schemaVersion > BUNDLE_SCHEMA_VERSION) {
    fail("bundle_too_new", `schema version ${d.schemaVersion}; this version reads up to ${BUNDLE_SCHEMA_VERSION}`);
  }
  const t = d.tables as Partial<FakeTables> | undefined;
  if (!t || !Array.isArray(t.company) || !Array.isArray(t.department) || !Array.isArray(t.employee)) {
    return fail("bundle_invalid", "missing tables");
  }
  if (t.company.length !== 1) fail("bundle_invalid", `a bundle holds exactly one company, this one ${t.company.length}`);
  return { company: t.company, department: t.department, employee: t.employee, provider: t.provider ?? [] };
}

export function importBundle(host: BundleHost, json: string): ImportReport {
  const t = parseBundle(json);
  const custom = host.providers.filter((p) => !p.builtin);
  if (host.company || host.departments.length > 0 || host.employees.length > 0 || custom.length > 0) {
    fail("database_not_empty", `the database is not empty (company: ${host.company ? 1 : 0})`);
  }
  const company = t.company[0] ?? fail("bundle_invalid", "no company");
  host.company = structuredClone(company);
  host.departments = structuredClone(t.department);
  host.employees = structuredClone(t.employee);
  // As on the Rust side: where prompts go and what run_cli runs wait for the boss's confirmation.
  host.providers.push(...structuredClone(t.provider).map((p) => ({ ...p, importedUnconfirmed: true })));
  host.importedCli = new Map(t.employee.flatMap((e) => (e.cliCommand === null ? [] : [[e.id, e.cliCommand] as const])));
  host.emit({ type: "company_updated", companyId: company.id });
  return {
    companyName: company.name,
    employees: t.employee.length,
    rows: 1 + t.department.length + t.employee.length + t.provider.length,
  };
}

function saveBundle(host: BundleHost, fileName: string): SavedBundle {
  if (!/^[^./\\][^/\\]*\.json$/.test(fileName)) fail("invalid_input", `${JSON.stringify(fileName)}: a bundle file is a plain name ending in .json`);
  const text = exportBundle(host);
  const taken = (p: string) => host.savedBundles.some((b) => b.path === p);
  const stem = fileName.slice(0, -".json".length);
  let path = `${FAKE_DOWNLOADS}/${fileName}`;
  for (let n = 2; taken(path); n++) path = `${FAKE_DOWNLOADS}/${stem}-${n}.json`;
  host.savedBundles.push({ path, text });
  return { path, bytes: new TextEncoder().encode(text).length };
}

export function importedToConfirm(host: BundleHost): ImportedToConfirm {
  return {
    providers: host.providers.filter((p) => p.importedUnconfirmed).map((p) => ({ providerId: p.id, name: p.name, baseUrl: p.baseUrl })),
    cliCommands: host.employees
      .filter((e) => e.firedAt === null && e.cliCommand !== null && host.importedCli.get(e.id) === e.cliCommand)
      .map((e) => ({ employeeId: e.id, employeeName: e.name, command: e.cliCommand ?? "" })),
  };
}

/** Confirms only what was shown: a value that changed since is `invalid_input`, as on the Rust side. */
function confirmImported(host: BundleHost, input: ConfirmImported): ImportedToConfirm {
  if (input.kind === "provider_url") {
    const p = host.providers.find((x) => x.id === input.providerId) ?? fail("not_found", `there is no provider "${input.providerId}"`);
    if (p.baseUrl !== input.baseUrl) fail("invalid_input", `the base URL of ${p.name} is no longer what you were shown (it is now ${p.baseUrl})`);
    p.importedUnconfirmed = false;
    host.emit({ type: "providers_changed" });
  } else {
    const e = host.employees.find((x) => x.id === input.employeeId) ?? fail("not_found", `employee ${input.employeeId} does not exist`);
    if (e.cliCommand !== input.command) fail("invalid_input", `${e.name}'s CLI command is no longer what you were shown`);
    host.importedCli.delete(e.id);
    host.emit({ type: "employee_updated", employeeId: e.id });
  }
  return importedToConfirm(host);
}

/** The bundle commands: export, save, import, and confirming what an import brought. */
export function bundleCommands(host: BundleHost) {
  return {
    export_company: () => exportBundle(host),
    save_company_bundle: ({ fileName }) => saveBundle(host, fileName),
    import_company: ({ json }) => importBundle(host, json),
    imported_to_confirm: () => importedToConfirm(host),
    confirm_imported: ({ input }) => confirmImported(host, input),
  } satisfies CommandPart;
}
