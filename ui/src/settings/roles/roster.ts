import type { RosterFile } from "../../bindings/RosterFile";

/** What the import picker offers: archives of cards, or the card files themselves. */
export const ROSTER_ACCEPT = ".zip,.tar,.tgz,.tar.gz,.md";

/** One picked file as the backend reads it: its name (with the folder, when a folder was picked) and bytes. */
function readFile(file: File): Promise<RosterFile> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error ?? new Error(`could not read ${file.name}`));
    reader.onload = () => {
      // A data URL: "data:<type>;base64,<bytes>".
      const url = String(reader.result);
      resolve({ name: file.webkitRelativePath || file.name, base64: url.slice(url.indexOf(",") + 1) });
    };
    reader.readAsDataURL(file);
  });
}

/** The picked files, in the order picked. */
export function rosterFiles(files: Iterable<File>): Promise<RosterFile[]> {
  return Promise.all(Array.from(files, readFile));
}

/** A new card to start from: every header key the app reads, with a short persona. */
export function newCardText(language: string): string {
  const zh = language.startsWith("zh");
  return [
    "---",
    "name: Growth Hacker",
    ...(zh ? ["name_zh: 增长黑客"] : []),
    "description: Finds cheap, fast experiments that bring new users, and measures each one.",
    "skills: [experiments, funnels, analytics]",
    "tools: [read_memory, read_file, write_file]",
    "model: inherit",
    "temperature: 0.6",
    "max_retries: 2",
    "---",
    "You run small growth experiments and report what each one changed, with numbers.",
    "",
    "Never: spend money or contact customers without the boss's approval.",
    "",
  ].join("\n");
}
