// Tests of scripts/npm-audit.mjs: how npm's audit report (format 2) and the reviewed allowlist
// are read, and the script run for real with npm on a package folder of its own.
// Run: node --test scripts/npm-audit.test.mjs
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { evaluate, readAllowlist, readReport } from "./npm-audit.mjs";

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), "npm-audit.mjs");

/** A report as npm 11 prints it: d3-color's ReDoS advisory, found through d3-interpolate. */
const REPORT = {
  auditReportVersion: 2,
  vulnerabilities: {
    "d3-color": {
      name: "d3-color",
      severity: "high",
      isDirect: false,
      via: [
        {
          source: 1088594,
          name: "d3-color",
          dependency: "d3-color",
          title: "d3-color vulnerable to ReDoS",
          url: "https://github.com/advisories/GHSA-36jr-mh4h-2g58",
          severity: "high",
          cwe: ["CWE-400"],
          cvss: { score: 7.5, vectorString: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H" },
          range: "<3.1.0",
        },
      ],
      effects: ["d3-interpolate"],
      range: "<3.1.0",
      nodes: ["node_modules/d3-color"],
      fixAvailable: true,
    },
    "d3-interpolate": {
      name: "d3-interpolate",
      severity: "high",
      isDirect: false,
      via: ["d3-color"],
      effects: [],
      range: "0.1.3 - 2.0.1",
      nodes: ["node_modules/d3-interpolate"],
      fixAvailable: true,
    },
    cookie: {
      name: "cookie",
      severity: "low",
      isDirect: true,
      via: [
        {
          source: 1103907,
          name: "cookie",
          dependency: "cookie",
          title: "cookie accepts cookie name, path, and domain with out of bounds characters",
          url: "https://github.com/advisories/GHSA-pxg6-pf52-xh8x",
          severity: "low",
          cwe: ["CWE-74"],
          range: "<0.7.0",
        },
      ],
      effects: [],
      range: "<0.7.0",
      nodes: ["node_modules/cookie"],
      fixAvailable: true,
    },
  },
  metadata: { vulnerabilities: { info: 0, low: 1, moderate: 0, high: 2, critical: 0, total: 3 } },
};

/** What this machine's registry answered (it serves packages, not the audit endpoint). */
const ENDPOINT_REFUSED = {
  message: "405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk",
  method: "POST",
  statusCode: 405,
  body: "",
  error: { summary: "", detail: "" },
};

test("each advisory is read once, by its GHSA id, and a package that only depends on it adds nothing", () => {
  const { advisories, unchecked } = readReport(REPORT);
  assert.equal(unchecked, undefined);
  assert.deepEqual(
    advisories.map((a) => [a.id, a.package, a.severity]),
    [
      ["GHSA-36jr-mh4h-2g58", "d3-color", "high"],
      ["GHSA-pxg6-pf52-xh8x", "cookie", "low"],
    ],
  );
});

test("a registry that cannot audit gives 'unchecked' with its answer, never a clean report", () => {
  const r = readReport(ENDPOINT_REFUSED);
  assert.equal(r.advisories, undefined);
  assert.match(r.unchecked, /405 Method Not Allowed/);
  assert.match(readReport(null).unchecked, /no report/);
});

test("an unlisted moderate-or-worse advisory fails, a listed one passes with its reason, low ones are notes", () => {
  const { advisories } = readReport(REPORT);
  const bare = evaluate(advisories, []);
  assert.deepEqual(
    bare.failures.map((a) => a.id),
    ["GHSA-36jr-mh4h-2g58"],
  );
  assert.deepEqual(
    bare.notes.map((a) => a.id),
    ["GHSA-pxg6-pf52-xh8x"],
  );

  const reviewed = [
    { id: "GHSA-36jr-mh4h-2g58", package: "d3-color", reason: "colours come from our own constants, never from input" },
    { id: "GHSA-0000-0000-0000", package: "left-pad", reason: "fixed long ago" },
  ];
  const r = evaluate(advisories, reviewed);
  assert.deepEqual(r.failures, []);
  assert.deepEqual(
    r.allowed.map((a) => [a.id, a.reason]),
    [["GHSA-36jr-mh4h-2g58", "colours come from our own constants, never from input"]],
  );
  assert.deepEqual(
    r.stale.map((e) => e.id),
    ["GHSA-0000-0000-0000"],
  );
});

test("an allowlist entry without a reason, or a list of the wrong shape, is refused", () => {
  assert.deepEqual(readAllowlist({ advisories: [{ id: "GHSA-36jr-mh4h-2g58", package: "d3-color", reason: " " }] }).errors, [
    "entry 1 has no reason",
  ]);
  assert.equal(readAllowlist([]).errors.length, 1);
  assert.deepEqual(readAllowlist({ advisories: [] }).errors, []);
});

test("the script audits a real package folder with npm and refuses a bad allowlist", () => {
  const dir = mkdtempSync(join(tmpdir(), "npm-audit-"));
  try {
    // No runtime dependencies: npm has nothing to send to the registry and reports at once.
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "t", version: "1.0.0", private: true }));
    const lock = spawnSync("npm", ["install", "--package-lock-only", "--no-audit", "--no-fund"], { cwd: dir, encoding: "utf8" });
    assert.equal(lock.status, 0, lock.stderr);

    const ok = spawnSync("node", [SCRIPT, dir], { encoding: "utf8" });
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    assert.match(ok.stdout, /0 advisories in runtime dependencies, 0 allowlisted/);

    writeFileSync(join(dir, "audit-allowlist.json"), JSON.stringify({ advisories: [{ id: "GHSA-36jr-mh4h-2g58", package: "d3-color" }] }));
    const bad = spawnSync("node", [SCRIPT, dir], { encoding: "utf8" });
    assert.equal(bad.status, 1, bad.stdout + bad.stderr);
    assert.match(bad.stdout, /entry 1 has no reason/);

    assert.equal(spawnSync("node", [SCRIPT], { encoding: "utf8" }).status, 2, "no folder: usage");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
