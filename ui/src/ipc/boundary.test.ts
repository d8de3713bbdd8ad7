import { describe, expect, it } from "vitest";

// Every source file of the app, as text (Vite's raw import: no Node APIs needed). Tests and
// the dev-only mock page (src/dev, never in the build) stand in for the backend on purpose.
const sources = import.meta.glob<string>(["../**/*.ts", "../**/*.tsx", "!../**/*.test.*", "!../test/**", "!../dev/**"], {
  query: "?raw",
  import: "default",
  eager: true,
});

describe("IPC boundary", () => {
  it("only src/ipc/ talks to the Tauri backend", () => {
    const offenders = Object.entries(sources)
      .filter(([path]) => !path.startsWith("../ipc/") && !path.startsWith("./"))
      .filter(([, text]) => /from\s+["']@tauri-apps\/api/.test(text))
      .map(([path]) => path);
    expect(offenders).toEqual([]);
  });

  it("actually scanned the app's sources", () => {
    expect(Object.keys(sources).length).toBeGreaterThan(10);
    expect(Object.keys(sources)).toContain("../App.tsx");
  });
});
