#!/usr/bin/env node
// `npm audit --omit=dev` for each package folder given (what ships: the UI's runtime
// dependencies; the root package has only build and test tools), checked against that
// folder's reviewed allowlist, `audit-allowlist.json`:
//   { "advisories": [ { "id": "GHSA-…", "package": "name", "reason": "why it does not apply" } ] }
// Fails on any advisory of moderate severity or higher that the allowlist does not name, and
// on an allowlist entry without a reason. Low and info advisories are printed, not failed.
// When the registry's audit endpoint cannot be reached the folder is NOT checked: that is said
// loudly with the registry's answer, and only CUBICLE_REQUIRE_ADVISORIES=1 makes it a failure.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** Severities that fail the check unless allowlisted. */
export const FAILING = ["moderate", "high", "critical"];
/** How long one `npm audit` may take. */
const AUDIT_TIMEOUT_MS = 120_000;

/** The advisory id npm links to (GHSA-…), or npm's own number when there is no link. */
function advisoryId(via) {
  const ghsa = /GHSA(-[23456789cfghjmpqrvwx]{4}){3}/.exec(via.url ?? "");
  return ghsa ? ghsa[0] : String(via.source);
}

/**
 * What an `npm audit --json` report (format 2) says: `unchecked` with the reason when npm
 * could not audit, otherwise each advisory once, with the packages it was found in.
 */
export function readReport(report) {
  if (!report || typeof report !== "object" || !report.vulnerabilities || typeof report.vulnerabilities !== "object") {
    const why = report?.error?.summary || report?.message || "npm audit gave no report";
    return { unchecked: String(why) };
  }
  const byId = new Map();
  for (const vuln of Object.values(report.vulnerabilities)) {
    for (const via of vuln.via ?? []) {
      // A string names another vulnerable package this one depends on; that one is listed itself.
      if (typeof via !== "object" || via === null) continue;
      const id = advisoryId(via);
      const seen = byId.get(id) ?? { id, package: via.name, severity: via.severity, title: via.title, url: via.url, range: via.range };
      byId.set(id, seen);
    }
  }
  return { advisories: [...byId.values()].sort((a, b) => a.id.localeCompare(b.id)) };
}

/** Checks the allowlist's shape; each entry needs an id, a package and a reason. */
export function readAllowlist(json) {
  const entries = json?.advisories;
  if (!Array.isArray(entries)) return { errors: ['the allowlist must be {"advisories": [...]}'], entries: [] };
  const errors = [];
  entries.forEach((e, i) => {
    for (const field of ["id", "package", "reason"]) {
      if (typeof e?.[field] !== "string" || e[field].trim() === "") errors.push(`entry ${i + 1} has no ${field}`);
    }
  });
  return { errors, entries };
}

/** Splits a report's advisories into failures, allowed ones and notes, and finds stale allowlist entries. */
export function evaluate(advisories, entries) {
  const allowed = new Map(entries.map((e) => [e.id, e]));
  const result = { failures: [], allowed: [], notes: [], stale: [] };
  for (const a of advisories) {
    const entry = allowed.get(a.id);
    if (entry) result.allowed.push({ ...a, reason: entry.reason });
    else if (FAILING.includes(a.severity)) result.failures.push(a);
    else result.notes.push(a);
  }
  const found = new Set(advisories.map((a) => a.id));
  result.stale = entries.filter((e) => !found.has(e.id));
  return result;
}

function runAudit(dir) {
  const run = spawnSync("npm", ["audit", "--omit=dev", "--json"], { cwd: dir, encoding: "utf8", timeout: AUDIT_TIMEOUT_MS });
  if (run.error) return { unchecked: `npm audit did not finish: ${run.error.message}` };
  try {
    return readReport(JSON.parse(run.stdout));
  } catch {
    const why = (run.stderr || run.stdout || "").trim().split("\n").slice(-2).join(" ");
    return { unchecked: `npm audit printed no report: ${why}` };
  }
}

function loud(lines) {
  const bar = "#".repeat(80);
  console.log(`\n${bar}\n${lines.map((l) => `### ${l}`).join("\n")}\n${bar}\n`);
}

const line = (a) => `${a.id} ${a.package} (${a.severity}): ${a.title ?? ""} ${a.url ?? ""}`.trim();

/** Audits one folder; returns "ok", "failed" or "unchecked". */
function auditFolder(dir) {
  const listPath = join(dir, "audit-allowlist.json");
  const list = existsSync(listPath) ? readAllowlist(JSON.parse(readFileSync(listPath, "utf8"))) : { errors: [], entries: [] };
  if (list.errors.length) {
    console.log(`${listPath}:\n  ${list.errors.join("\n  ")}`);
    return "failed";
  }
  const report = runAudit(dir);
  if (report.unchecked) {
    loud([`NPM ADVISORIES OF ${dir}/ WERE NOT CHECKED.`, `The registry's audit endpoint answered: ${report.unchecked}`]);
    return "unchecked";
  }
  const r = evaluate(report.advisories, list.entries);
  console.log(`${dir}: ${report.advisories.length} advisories in runtime dependencies, ${r.allowed.length} allowlisted`);
  for (const a of r.allowed) console.log(`  allowed  ${line(a)}\n           because: ${a.reason}`);
  for (const a of r.notes) console.log(`  note     ${line(a)}`);
  for (const e of r.stale) console.log(`  stale allowlist entry (no longer reported, remove it): ${e.id} ${e.package}`);
  for (const a of r.failures) console.log(`  FAILED   ${line(a)}`);
  if (r.failures.length) {
    console.log(`  ${r.failures.length} advisories of moderate severity or higher: update the package (npm audit fix),`);
    console.log(`  or review each and add it to ${listPath} with the reason it does not apply.`);
  }
  return r.failures.length ? "failed" : "ok";
}

function main(dirs) {
  if (dirs.length === 0) {
    console.error("usage: node scripts/npm-audit.mjs DIR...");
    return 2;
  }
  const outcomes = dirs.map(auditFolder);
  if (outcomes.includes("failed")) return 1;
  if (outcomes.includes("unchecked") && process.env.CUBICLE_REQUIRE_ADVISORIES === "1") {
    console.error("CUBICLE_REQUIRE_ADVISORIES=1: failing");
    return 1;
  }
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
